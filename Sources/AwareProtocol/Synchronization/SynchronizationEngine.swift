import AwareCore
import AwareWire

/// NAN synchronization for one device (nan-wire-reference.md 1.4, 2.3): scan for a cluster, join
/// it or form one, keep the discovery windows on channel 6 and 149, send sync beacons in windows
/// and (as master) discovery beacons every 100 TU, and run the master election and anchor master
/// selection so that devices in range converge on one cluster and one anchor master.
///
/// What it leaves out, on purpose:
/// - Cluster merging compares Anchor Master Ranks, not the specification's Cluster Grade: a
///   device hearing a beacon of another cluster with a higher AMR than its own joins it.
/// - The TSF is adopted when joining and never tracked afterwards: clocks are assumed not to
///   drift (virtual time, or processes on one machine).
/// - No non-master non-sync role and no "sync → non-sync" transition; master preference and
///   random factor never change after start (OpenNAN updates them every 120-240 DWs).
/// - The AMBTT is the low 32 bits of the anchor master's TSF when it sends a sync beacon;
///   freshness is "greater, modulo 2^32" (its semantics are unverified, 1.4).
///
/// Like every machine here it takes time and randomness from outside:
/// ```swift
/// var sync = SynchronizationEngine(configuration: .init(address: nmi))
/// var rng = SeededGenerator(seed: 7)
/// var actions = sync.handle(.start, now: .zero, rng: &rng)   // notify(.listen([6])), arm(.scanEnd, ...)
/// ```
public struct SynchronizationEngine: Sendable {
    enum State: Hashable, Sendable {
        case idle
        case scanning
        case inCluster(ClusterMembership)
    }

    public let configuration: SynchronizationConfiguration
    var state: State = .idle
    var randomFactor: UInt8 = 0
    var counter = TransmitCounter(tag: 0x53)

    public init(configuration: SynchronizationConfiguration) {
        self.configuration = configuration
    }

    /// `MasterPreference << 56 | RandomFactor << 48 | NMI (little-endian)` (1.4).
    public var masterRank: UInt64 {
        ClusterAttribute.masterRank(
            masterPreference: configuration.masterPreference,
            randomFactor: randomFactor,
            address: configuration.address
        )
    }

    /// Where the device stands; nil while idle or scanning.
    public var cluster: ClusterStatus? {
        guard case .inCluster(let membership) = state else { return nil }
        return status(of: membership)
    }

    public var isScanning: Bool { state == .scanning }

    /// The cluster's TSF at `instant` (µs), once in a cluster.
    public func tsf(at instant: Instant) -> UInt64? {
        guard case .inCluster(let membership) = state else { return nil }
        return membership.tsf(at: instant)
    }

    public mutating func handle(
        _ event: SynchronizationEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [SynchronizationAction] {
        var actions: [SynchronizationAction] = []
        switch (event, state) {
        case (.start, .idle):
            randomFactor = UInt8.random(in: .min ... .max, using: &rng)
            state = .scanning
            actions.append(.notify(.listen([.channel6])))
            actions.append(.arm(.scanEnd, at: now + configuration.scanPeriod))
            actions.append(.notify(.scanning))
        case (.start, _):
            break
        case (.stop, .idle):
            break
        case (.stop, _):
            stop(actions: &actions)
        case (.timerFired(.scanEnd), .scanning):
            formCluster(now: now, rng: &rng, actions: &actions)
        case (.timerFired(let timer), .inCluster(var membership)):
            fire(timer, membership: &membership, now: now, rng: &rng, actions: &actions)
            if case .inCluster = state { state = .inCluster(membership) }
        case (.timerFired, _):
            break
        case (.received(let received), _):
            receive(received, now: now, actions: &actions)
        }
        return actions
    }

    func status(of membership: ClusterMembership) -> ClusterStatus {
        ClusterStatus(
            clusterID: membership.clusterID,
            role: membership.role,
            masterRank: masterRank,
            anchorMasterRank: membership.anchorMasterRank,
            hopCount: membership.hopCount,
            tsfOffsetMicroseconds: membership.tsfOffsetMicroseconds
        )
    }

    private mutating func stop(actions: inout [SynchronizationAction]) {
        if case .inCluster(let membership) = state {
            cancelClusterTimers(membership, actions: &actions)
        } else {
            actions.append(.cancel(.scanEnd))
        }
        state = .idle
        actions.append(.notify(.listen([])))
        actions.append(.notify(.stopped))
    }

    func cancelClusterTimers(_ membership: ClusterMembership, actions: inout [SynchronizationAction]) {
        for channel in configuration.channels {
            actions.append(.cancel(.windowStart(channel)))
            actions.append(.cancel(.windowEnd(channel)))
            actions.append(.cancel(.syncBeacon(channel)))
        }
        actions.append(.cancel(.discoveryBeacon))
    }

    /// A random Cluster ID in 50:6F:9A:01:xx:xx (1.3); TSF = the device's own TSF timer
    /// (``SynchronizationConfiguration/ownTSFOffsetMicroseconds``); anchor master.
    private mutating func formCluster(
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [SynchronizationAction]
    ) {
        // The device's own address goes into the draw: two devices whose generators share a seed
        // (a runner and an emulator started with the same --seed) would otherwise form clusters
        // with the same ID at the same moment, never merge, and keep unrelated TSFs.
        let own = UInt16(configuration.address.octets[4]) << 8 | UInt16(configuration.address.octets[5])
        let suffix = UInt16.random(in: .min ... .max, using: &rng) ^ own
        let clusterID = MACAddress(
            0x50,
            0x6F,
            0x9A,
            0x01,
            UInt8(truncatingIfNeeded: suffix >> 8),
            UInt8(truncatingIfNeeded: suffix)
        )
        var membership = ClusterMembership(
            clusterID: clusterID,
            tsfOffsetMicroseconds: configuration.ownTSFOffsetMicroseconds,
            role: .master,
            anchorMasterRank: masterRank,
            hopCount: 0,
            anchorMasterBeaconTransmissionTime: 0
        )
        enter(&membership, now: now, actions: &actions)
        state = .inCluster(membership)
        actions.append(.notify(.clusterStarted(status(of: membership))))
    }

    /// Arms the first window on every channel and, for a master, the discovery beacons.
    func enter(_ membership: inout ClusterMembership, now: Instant, actions: inout [SynchronizationAction]) {
        let tsf = membership.tsf(at: now)
        for channel in configuration.channels {
            let start = DiscoveryWindowTiming.nextWindowStart(atOrAfter: tsf, on: channel)
            actions.append(.arm(.windowStart(channel), at: max(now, membership.instant(atTSF: start))))
        }
        if membership.role == .master {
            actions.append(.arm(.discoveryBeacon, at: now + configuration.discoveryBeaconInterval))
        }
    }
}

/// What a ``SynchronizationEngine`` needs to know. Defaults and their sources are in
/// nan-wire-reference.md 1.4.
public struct SynchronizationConfiguration: Hashable, Sendable {
    /// Own NMI: A2 of beacons and the low 48 bits of the Master Rank.
    public var address: MACAddress
    /// The high octet of the Master Rank. 2 is a choice: low, as befits a battery accessory,
    /// but non-zero so that the device can still win an election among zero-preference peers.
    public var masterPreference: UInt8
    /// The channels with discovery windows: channel 6 always, 149 for the 5 GHz window
    /// (128 TU later, `DiscoveryWindowTiming.offset5GHz`).
    public var channels: [NANChannel]
    /// How long to listen for a cluster before forming one. Four DW periods (about 2.1 s) is a
    /// choice: long enough to hear at least one sync beacon of a cluster and many of its
    /// discovery beacons (every 100 TU).
    public var scanPeriod: Interval
    /// OpenNAN `NAN_DISCOVERY_BEACON_INTERVAL_TU` (1.4).
    public var discoveryBeaconInterval: Interval
    /// RSSI_close and RSSI_middle, OpenNAN peer.h defaults (1.4).
    public var closeRSSIDBm: Int
    public var middleRSSIDBm: Int
    /// A non-anchor master that hears no fresher AMBTT for this many DWs takes over as anchor
    /// master (OpenNAN `nan_check_anchor_master_expiration`, 1.4).
    public var anchorMasterExpiryWindows: UInt64
    public var transmitPowerDBm: Int
    /// The TSF of a cluster this device forms, less its local time (µs): where its own TSF
    /// timer stands. A radio's TSF timer runs from its own power-on, so two devices' timers
    /// agree only by chance, and every slot of a schedule counts from the TSF of the cluster,
    /// not from either device's clock (2.7). 0 keeps the TSF on the scheduler's clock; on the
    /// simulated air every device shares that clock, so tests set another value to tell a
    /// device that follows the cluster's TSF from one that takes its own time for it.
    public var ownTSFOffsetMicroseconds: Int64

    public init(
        address: MACAddress,
        masterPreference: UInt8 = 2,
        channels: [NANChannel] = [.channel6, .channel149],
        scanPeriod: Interval = DiscoveryWindowTiming.period * 4,
        discoveryBeaconInterval: Interval = .timeUnits(100),
        closeRSSIDBm: Int = -60,
        middleRSSIDBm: Int = -75,
        anchorMasterExpiryWindows: UInt64 = 3,
        transmitPowerDBm: Int = 20,
        ownTSFOffsetMicroseconds: Int64 = 0
    ) {
        self.address = address
        self.masterPreference = masterPreference
        self.channels = channels
        self.scanPeriod = scanPeriod
        self.discoveryBeaconInterval = discoveryBeaconInterval
        self.closeRSSIDBm = closeRSSIDBm
        self.middleRSSIDBm = middleRSSIDBm
        self.anchorMasterExpiryWindows = anchorMasterExpiryWindows
        self.transmitPowerDBm = transmitPowerDBm
        self.ownTSFOffsetMicroseconds = ownTSFOffsetMicroseconds
    }
}

/// What happens to a ``SynchronizationEngine``.
public enum SynchronizationEvent: Hashable, Sendable {
    /// Begin scanning for a cluster.
    case start
    /// Leave the cluster and stop every timer.
    case stop
    case received(ReceivedFrame)
    case timerFired(SynchronizationTimer)
}

extension SynchronizationEngine: ProtocolMachine {
    public typealias Event = SynchronizationEvent
    public typealias Transmission = TxRequest
    public typealias Timer = SynchronizationTimer
    public typealias Notification = SynchronizationNotification

    public static func timerEvent(_ timer: SynchronizationTimer) -> SynchronizationEvent { .timerFired(timer) }
}

/// What a ``SynchronizationEngine`` asks its driver to do, in order.
public typealias SynchronizationAction = MachineAction<TxRequest, SynchronizationTimer, SynchronizationNotification>

/// The timers a ``SynchronizationEngine`` arms. Arming a timer that is already armed moves it.
public enum SynchronizationTimer: Hashable, Sendable {
    /// No cluster heard within the scan period: form one.
    case scanEnd
    case windowStart(NANChannel)
    case windowEnd(NANChannel)
    /// The sync beacon of the window open on this channel, at a random instant in it.
    case syncBeacon(NANChannel)
    /// A master's next discovery beacon.
    case discoveryBeacon
}

/// What a ``SynchronizationEngine`` tells its owner. The window notifications are meant to be
/// handed on to a synchronized ``DiscoveryEngine`` as ``DiscoveryEvent/discoveryWindowStarted(_:)``
/// and ``DiscoveryEvent/discoveryWindowEnded(_:)``.
public enum SynchronizationNotification: Hashable, Sendable {
    /// The machine asks for its receiver on these channels from now on: a discovery window's
    /// channel while it is open, channel 6 between windows (1.4), none once stopped. The device
    /// tunes the receiver; in synchronized mode this, not discovery's request, decides.
    case listen(Set<NANChannel>)
    case scanning
    /// No cluster was heard: this device formed one and is its anchor master.
    case clusterStarted(ClusterStatus)
    /// This device adopted a cluster it heard (when scanning, or merging into a higher-ranked one).
    case clusterJoined(ClusterStatus)
    case roleChanged(ClusterStatus)
    case anchorMasterChanged(ClusterStatus)
    /// The device took the cluster's TSF again from a higher-ranked device's sync beacon: its
    /// own had moved from it by `byMicroseconds` (the new offset less the old).
    case clusterTimeAdjusted(ClusterStatus, byMicroseconds: Int64)
    case discoveryWindowStarted(DiscoveryWindow)
    case discoveryWindowEnded(DiscoveryWindow)
    case stopped
}

/// A device's role in its cluster (nan-wire-reference.md 1.4). Masters send discovery beacons;
/// masters and non-master sync devices send sync beacons in DWs. Non-master non-sync is not
/// entered by this engine (see ``SynchronizationEngine``).
public enum SynchronizationRole: String, Hashable, Sendable {
    case master
    case nonMasterSync
    case nonMasterNonSync

    var sendsSyncBeacons: Bool { self != .nonMasterNonSync }
}

/// Where a ``SynchronizationEngine`` stands in its cluster.
public struct ClusterStatus: Hashable, Sendable {
    public var clusterID: MACAddress
    public var role: SynchronizationRole
    public var masterRank: UInt64
    public var anchorMasterRank: UInt64
    public var hopCount: UInt8
    /// TSF (µs) = local time (µs) + this offset.
    public var tsfOffsetMicroseconds: Int64

    /// This device is the anchor master: the cluster's AMR is its own Master Rank.
    public var isAnchorMaster: Bool { anchorMasterRank == masterRank }
}

/// The state of a device in a cluster.
struct ClusterMembership: Hashable, Sendable {
    var clusterID: MACAddress
    var tsfOffsetMicroseconds: Int64
    var role: SynchronizationRole
    var anchorMasterRank: UInt64
    var hopCount: UInt8
    var anchorMasterBeaconTransmissionTime: UInt32
    /// Channel 6 windows ended since the device entered the cluster.
    var windowCount: UInt64 = 0
    var lastAnchorMasterUpdate: UInt64 = 0
    /// Sync beacons of the cluster heard since the last election (the end of the previous channel 6
    /// window), by transmitter.
    var peers: [MACAddress: PeerObservation] = [:]
    /// The window open now on each channel.
    var openWindows: [NANChannel: DiscoveryWindow] = [:]

    func tsf(at instant: Instant) -> UInt64 {
        let local = Int64(truncatingIfNeeded: instant.nanoseconds / 1_000)
        let (sum, overflow) = local.addingReportingOverflow(tsfOffsetMicroseconds)
        if overflow { return tsfOffsetMicroseconds > 0 ? UInt64(Int64.max) : 0 }
        return UInt64(clamping: sum)
    }

    func instant(atTSF tsf: UInt64) -> Instant {
        let (local, overflow) = Int64(clamping: tsf).subtractingReportingOverflow(tsfOffsetMicroseconds)
        guard !overflow, local > 0 else {
            return overflow && tsfOffsetMicroseconds < 0 ? Instant(nanoseconds: .max) : .zero
        }
        return Instant(nanoseconds: UInt64(local).multipliedReportingOverflow(by: 1_000).partialValue)
    }
}

/// One peer's sync beacon, as the master election needs it (1.4).
struct PeerObservation: Hashable, Sendable {
    var masterRank: UInt64
    var rssiDBm: Int
}

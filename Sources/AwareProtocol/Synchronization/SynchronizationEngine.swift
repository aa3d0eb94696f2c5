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
/// var actions = sync.handle(.start, now: .zero, rng: &rng)   // listen([6]), arm(.scanEnd, ...)
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
            actions.append(.listen([.channel6]))
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
        actions.append(.listen([]))
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

import AwareCore
import AwareWire

/// The publish/subscribe/follow-up machine of one station (nan-wire-reference.md 1.3-1.5, 2.4, 2.5).
///
/// A value that consumes events and returns actions: it never reads a clock, sleeps or does
/// I/O. Time comes with every event; randomness is taken from the generator passed in.
///
/// ```swift
/// var engine = DiscoveryEngine(configuration: .init(address: nmi))
/// var rng = SeededGenerator(seed: 1)
/// let actions = engine.handle(.command(.publish(.init(serviceName: "_drone-service._udp"))), now: .zero, rng: &rng)
/// // [.notify(.listen([channel 6])), .notify(.publishStarted(...)),
/// //  .arm(.announce(1), at: a random phase in [0, 100 ms))]
/// ```
///
/// Transmissions are spread so that stations started together do not stay in step: in USD
/// each announcement series starts at a random phase and every period is jittered; when
/// synchronized, each frame goes out at a random instant inside the window (``WindowContention``).
public struct DiscoveryEngine: Sendable {
    public let configuration: DiscoveryConfiguration
    /// Device Capability and NAN Availability for the SDFs of services that take part in data
    /// paths (``DataPathAdvertisement``); nil sends neither. The device sets it, and sets it
    /// again when its availability changes.
    public var dataPathAdvertisement: DataPathAdvertisement?
    var publishes: [PublishInstance] = []
    var subscribes: [SubscribeInstance] = []
    var counter = TransmitCounter(tag: 0x44)
    var listening = false
    /// Synchronized mode: the windows open now, frames waiting for the next one, and frames
    /// waiting for their instant inside an open one.
    var openWindows: [DiscoveryWindow] = []
    var pending: [QueuedFrame] = []
    var windowQueue: [WindowTransmission] = []
    var clusterID: MACAddress?
    /// The A3 each peer last used, for follow-ups (1.3).
    var peerAddressThree: [MACAddress: MACAddress] = [:]
    var followUpTokens: [UInt64: UInt32] = [:]
    /// Follow-ups on the air, by TX-status cookie, with how often each was sent: one that is
    /// not acknowledged goes again in a later window, as a MAC retries a unicast frame (the peer
    /// may have left the window early), up to ``followUpAttempts`` times.
    var followUpsInFlight: [UInt64: (frame: ManagementFrame, attempt: Int)] = [:]
    static let followUpAttempts = 4

    public init(configuration: DiscoveryConfiguration) {
        self.configuration = configuration
    }

    public var address: MACAddress { configuration.address }
    public var publishInstanceIDs: [UInt8] { publishes.map(\.instanceID) }
    public var subscribeInstanceIDs: [UInt8] { subscribes.map(\.instanceID) }
    /// The Service Update Indicator a running publish now sends.
    public func serviceUpdateIndicator(ofPublish instanceID: UInt8) -> UInt8? {
        publishes.first { $0.instanceID == instanceID }?.serviceUpdateIndicator
    }

    public mutating func handle(
        _ event: DiscoveryEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [DiscoveryAction] {
        var actions: [DiscoveryAction] = []
        switch event {
        case .command(let command):
            perform(command, now: now, rng: &rng, actions: &actions)
        case .received(let received):
            receive(received, actions: &actions)
        case .timerFired(let timer):
            fire(timer, now: now, rng: &rng, actions: &actions)
        case .transmitted(let status):
            guard counter.owns(cookie: status.cookie), let token = followUpTokens.removeValue(forKey: status.cookie)
            else { break }
            let inFlight = followUpsInFlight.removeValue(forKey: status.cookie)
            if !status.acknowledged, let inFlight, inFlight.attempt < Self.followUpAttempts {
                send(inFlight.frame, followUpToken: token, attempt: inFlight.attempt + 1, actions: &actions)
                break
            }
            actions.append(.notify(.followUpTransmitted(token: token, acknowledged: status.acknowledged)))
        case .discoveryWindowStarted(let window):
            openWindow(window, now: now, rng: &rng, actions: &actions)
        case .discoveryWindowEnded(let window):
            closeWindow(on: window.channel, actions: &actions)
        case .radioFailed:
            terminateAll(reason: .failure, actions: &actions)
        }
        return actions
    }

    private mutating func fire(
        _ timer: DiscoveryTimer,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) {
        switch timer {
        case .announce(let instanceID):
            if let index = publishes.firstIndex(where: { $0.instanceID == instanceID }),
                let due = publishes[index].nextAnnouncement, now >= due
            {
                announcePublish(at: index, now: now, rng: &rng, actions: &actions)
            } else if let index = subscribes.firstIndex(where: { $0.instanceID == instanceID }),
                let due = subscribes[index].nextAnnouncement, now >= due
            {
                announceSubscribe(at: index, now: now, rng: &rng, actions: &actions)
            }
        case .windowTransmit(let channel):
            transmitQueued(on: channel, now: now, actions: &actions)
        case .timeToLive(let instanceID):
            if let index = publishes.firstIndex(where: { $0.instanceID == instanceID }),
                let expiry = publishes[index].expiry, now >= expiry
            {
                terminatePublish(at: index, reason: .timeToLiveExpired, actions: &actions)
            } else if let index = subscribes.firstIndex(where: { $0.instanceID == instanceID }),
                let expiry = subscribes[index].expiry, now >= expiry
            {
                terminateSubscribe(at: index, reason: .timeToLiveExpired, actions: &actions)
            }
        }
    }

    /// Synchronized mode: every unsolicited publish and active subscribe once per window, and
    /// whatever waited for a window, each at its own random instant in it.
    private mutating func openWindow(
        _ window: DiscoveryWindow,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) {
        guard case .synchronized = configuration.mode else { return }
        closeWindow(on: window.channel, actions: &actions)
        openWindows.append(window)
        clusterID = window.clusterID
        // Windows come 512 TU apart, so their start times divided by that count up by one from
        // window to window, on each channel: every Nth window is every Nth number.
        let number = window.start.nanoseconds / UInt64(DiscoveryWindowTiming.period.nanoseconds)
        for publish in publishes where publish.configuration.solicitation.sendsUnsolicited {
            guard number % UInt64(publish.configuration.announcementPeriod) == 0 else { continue }
            enqueue(.announcement(.publish, instanceID: publish.instanceID), in: window, now: now, rng: &rng)
        }
        for subscribe in subscribes where subscribe.isActive {
            enqueue(.announcement(.subscribe, instanceID: subscribe.instanceID), in: window, now: now, rng: &rng)
        }
        let waiting = pending
        pending = []
        for queued in waiting {
            enqueue(.frame(queued), in: window, now: now, rng: &rng)
        }
        armWindowTransmit(on: window.channel, actions: &actions)
    }

    /// What was queued for a window that ends unsent: replies and follow-ups wait for the next
    /// window, announcements are dropped (the next window announces again).
    private mutating func closeWindow(on channel: NANChannel, actions: inout [DiscoveryAction]) {
        openWindows.removeAll { $0.channel == channel }
        guard windowQueue.contains(where: { $0.channel == channel }) else { return }
        for entry in windowQueue where entry.channel == channel {
            if case .frame(let queued) = entry.content { pending.append(queued) }
        }
        windowQueue.removeAll { $0.channel == channel }
        actions.append(.cancel(.windowTransmit(channel)))
    }

    mutating func terminateAll(reason: TerminationReason, actions: inout [DiscoveryAction]) {
        while !publishes.isEmpty {
            terminatePublish(at: publishes.startIndex, reason: reason, actions: &actions)
        }
        while !subscribes.isEmpty {
            terminateSubscribe(at: subscribes.startIndex, reason: reason, actions: &actions)
        }
        pending = []
        for channel in Set(windowQueue.map(\.channel)).sorted() {
            actions.append(.cancel(.windowTransmit(channel)))
        }
        windowQueue = []
    }

    mutating func terminatePublish(at index: Int, reason: TerminationReason, actions: inout [DiscoveryAction]) {
        end(publishes.remove(at: index), reason: reason, actions: &actions)
    }

    mutating func terminateSubscribe(at index: Int, reason: TerminationReason, actions: inout [DiscoveryAction]) {
        end(subscribes.remove(at: index), reason: reason, actions: &actions)
    }

    /// Cancels the timers of an instance already removed and tells the owner it ended.
    private func end<Instance: ServiceInstance>(
        _ instance: Instance,
        reason: TerminationReason,
        actions: inout [DiscoveryAction]
    ) {
        let instanceID = instance.instanceID
        if instance.nextAnnouncement != nil { actions.append(.cancel(.announce(instanceID: instanceID))) }
        if instance.expiry != nil { actions.append(.cancel(.timeToLive(instanceID: instanceID))) }
        actions.append(.notify(.terminated(instanceID: instanceID, role: Instance.role, reason: reason)))
    }
}

/// What a ``DiscoveryEngine`` needs to know about its station.
public struct DiscoveryConfiguration: Hashable, Sendable {
    /// Own NMI: A2 of every SDF, and the address SRFs and unicast SDFs are checked against.
    public var address: MACAddress
    public var mode: DiscoveryMode
    /// USD only: how often unsolicited publishes and active subscribes are repeated. hostap's
    /// default announcement period is 100 ms (nan-wire-reference.md 1.5). In synchronized mode
    /// they are sent once per discovery window instead.
    public var announcementPeriod: Interval
    /// Peers below this RSSI are out of range for Discovery Range Limited services.
    public var rangeThresholdDBm: Int
    public var transmitPowerDBm: Int
    /// Also report publishes of a subscribed service that a filter or the range rejected, as
    /// results whose ``DiscoveryResult/outcome`` says why (a diagnosis aid for the runner).
    public var reportsRejectedPublishes: Bool

    public init(
        address: MACAddress,
        mode: DiscoveryMode = .usd,
        announcementPeriod: Interval = .milliseconds(100),
        rangeThresholdDBm: Int? = nil,
        transmitPowerDBm: Int = 20,
        reportsRejectedPublishes: Bool = false
    ) {
        self.address = address
        self.mode = mode
        self.announcementPeriod = announcementPeriod
        self.rangeThresholdDBm = rangeThresholdDBm ?? mode.defaultRangeThresholdDBm
        self.transmitPowerDBm = transmitPowerDBm
        self.reportsRejectedPublishes = reportsRejectedPublishes
    }
}

/// How SDFs reach the air.
public enum DiscoveryMode: Hashable, Sendable {
    /// Unsynchronized service discovery (nan-wire-reference.md 1.5): no cluster, no windows;
    /// multicast SDFs with A1 = A3 = NAN Network ID on one channel, announced periodically.
    case unsynchronized(channel: NANChannel)
    /// SDFs only inside the discovery windows a ``SynchronizationEngine`` reports, with
    /// A3 = Cluster ID (nan-wire-reference.md 1.3, 1.4).
    case synchronized

    /// USD on channel 6, hostap's `NAN_USD_DEFAULT_FREQ` 2437 MHz (1.5).
    public static let usd = DiscoveryMode.unsynchronized(channel: .channel6)

    /// The RSSI at or above which a peer counts as in range for Discovery Range Limited
    /// services. USD: hostap `NAN_DE_RSSI_CLOSE_PROXIMITY` -70 dBm (1.5). Synchronized: the
    /// cluster's RSSI_close, -60 dBm (OpenNAN peer.h, nl80211 band configuration; 1.4), the
    /// same threshold the master election uses for "close".
    public var defaultRangeThresholdDBm: Int {
        switch self {
        case .unsynchronized: -70
        case .synchronized: -60
        }
    }
}

/// What happens to a ``DiscoveryEngine``.
public enum DiscoveryEvent: Hashable, Sendable {
    case command(DiscoveryCommand)
    case received(ReceivedFrame)
    case timerFired(DiscoveryTimer)
    case transmitted(TxStatus)
    /// Synchronized mode: a window opened (from ``SynchronizationNotification/discoveryWindowStarted(_:)``).
    case discoveryWindowStarted(DiscoveryWindow)
    case discoveryWindowEnded(DiscoveryWindow)
    /// The radio can no longer send or receive: every instance ends with reason ``TerminationReason/failure``.
    case radioFailed
}

/// What the owner asks a ``DiscoveryEngine`` to do.
public enum DiscoveryCommand: Hashable, Sendable {
    case publish(PublishConfiguration)
    case subscribe(SubscribeConfiguration)
    case updatePublish(instanceID: UInt8, PublishUpdate)
    case cancelPublish(instanceID: UInt8)
    case cancelSubscribe(instanceID: UInt8)
    case transmitFollowUp(FollowUpRequest)
}

/// Why a command was refused; the engine's state is unchanged.
public enum DiscoveryCommandError: Error, Hashable, Sendable {
    /// Instance IDs are 1...255 (nan-wire-reference.md 2.4); 0 means "none" in Requestor Instance ID.
    case instanceIDZero
    case instanceIDInUse(UInt8)
    case noFreeInstanceID
    case unknownInstance(UInt8)
    /// A matching filter over 255 octets does not fit the SDA's length octet.
    case matchingFilterTooLong(octets: Int)
    /// SDEA Service Info over 65535 octets does not fit its length field (2.5).
    case serviceInfoTooLong(octets: Int)
    /// A follow-up is sent by a publish or subscribe; the instance named is neither.
    case followUpFromUnknownInstance(UInt8)
}

extension DiscoveryEngine: ProtocolMachine {
    public typealias Event = DiscoveryEvent
    public typealias Transmission = TxRequest
    public typealias Timer = DiscoveryTimer
    public typealias Notification = DiscoveryNotification

    public static func timerEvent(_ timer: DiscoveryTimer) -> DiscoveryEvent { .timerFired(timer) }
}

/// What a ``DiscoveryEngine`` asks its driver to do, in order.
public typealias DiscoveryAction = MachineAction<TxRequest, DiscoveryTimer, DiscoveryNotification>

/// The timers a ``DiscoveryEngine`` arms. Arming a timer that is already armed moves it.
public enum DiscoveryTimer: Hashable, Sendable {
    /// USD: the next unsolicited Publish or active Subscribe of an instance.
    case announce(instanceID: UInt8)
    /// The instance's time to live ends.
    case timeToLive(instanceID: UInt8)
    /// Synchronized mode: the next frame queued for the window open on this channel is due.
    case windowTransmit(NANChannel)
}

/// What a ``DiscoveryEngine`` tells its owner.
public enum DiscoveryNotification: Hashable, Sendable {
    /// USD: the machine asks for its receiver on these channels. The device decides: in
    /// synchronized mode the synchronization machine tunes the receiver (its
    /// ``SynchronizationNotification/listen(_:)``), so the engine never asks then.
    case listen(Set<NANChannel>)
    case publishStarted(instanceID: UInt8, serviceName: String)
    case subscribeStarted(instanceID: UInt8, serviceName: String)
    case commandRejected(DiscoveryCommandError)
    case discoveryResult(DiscoveryResult)
    case replied(SubscriberReply)
    case followUpReceived(FollowUpMessage)
    case followUpTransmitted(token: UInt32, acknowledged: Bool)
    case publishUpdated(instanceID: UInt8, serviceUpdateIndicator: UInt8)
    case terminated(instanceID: UInt8, role: ServiceRole, reason: TerminationReason)
}

/// Whether a local instance publishes or subscribes.
public enum ServiceRole: String, Hashable, Sendable {
    case publish
    case subscribe
}

/// Why a publish or subscribe ended, with nl80211's values (`enum nl80211_nan_func_term_reason`:
/// 0 user request, 1 TTL expired, 2 error; nan-wire-reference.md 6).
public enum TerminationReason: UInt8, Hashable, Sendable, CaseIterable {
    case userRequested = 0
    case timeToLiveExpired = 1
    case failure = 2

    public var name: String {
        switch self {
        case .userRequested: "user request"
        case .timeToLiveExpired: "TTL expired"
        case .failure: "error"
        }
    }
}

import AwareCore
import AwareWire

@testable import AwareProtocol

/// A tiny in-test wire with virtual time for the Discovery* and Synchronization* suites: timers
/// fire in time order (ties in arming order); every transmitted frame reaches the other stations
/// listening on its channel `latency` later (so a receiver whose window starts at the same
/// instant has switched channel), with a fixed RSSI per pair, and unicast frames get a TX
/// status then. No air model beyond that: no airtime by length, loss or contention.
struct TestWire {
    struct Station {
        var discovery: DiscoveryEngine
        var synchronization: SynchronizationEngine?
        var listening: Set<NANChannel> = []
    }

    enum TimerKey: Hashable {
        case discovery(Int, DiscoveryTimer)
        case synchronization(Int, SynchronizationTimer)
    }

    struct Transmission {
        var station: Int
        var time: Instant
        var request: TxRequest
    }

    var stations: [Station] = []
    var now: Instant = .zero
    var rng: SeededGenerator
    /// RSSI for a pair of stations (either order); `defaultRSSI` otherwise.
    var rssi: [Set<Int>: Int] = [:]
    var defaultRSSI = -50
    var timers: [TimerKey: (at: Instant, sequence: Int)] = [:]
    var deliveries: [(at: Instant, sequence: Int, sender: Int, request: TxRequest)] = []
    var latency = Interval.microseconds(100)
    var sequence = 0
    var transmissions: [Transmission] = []
    var notifications: [(station: Int, time: Instant, notification: DiscoveryNotification)] = []
    var synchronizationNotifications: [(station: Int, time: Instant, notification: SynchronizationNotification)] = []
    var discoveryActions: [(station: Int, time: Instant, action: DiscoveryAction)] = []

    init(seed: UInt64 = 1) {
        rng = SeededGenerator(seed: seed)
    }

    @discardableResult
    mutating func addStation(
        _ address: MACAddress,
        mode: DiscoveryMode = .usd,
        synchronization: SynchronizationConfiguration? = nil,
        reportsRejected: Bool = false
    ) -> Int {
        let configuration = DiscoveryConfiguration(
            address: address,
            mode: mode,
            reportsRejectedPublishes: reportsRejected
        )
        stations.append(
            Station(
                discovery: DiscoveryEngine(configuration: configuration),
                synchronization: synchronization.map(SynchronizationEngine.init)
            )
        )
        return stations.count - 1
    }

    mutating func command(_ station: Int, _ command: DiscoveryCommand) {
        handleDiscovery(station, .command(command))
    }

    mutating func startSynchronization(_ station: Int) {
        handleSynchronization(station, .start)
    }

    mutating func run(for interval: Interval) {
        run(until: now + interval)
    }

    mutating func run(until end: Instant) {
        while true {
            let timer = timers.filter({ $0.value.at <= end }).min(by: {
                ($0.value.at, $0.value.sequence) < ($1.value.at, $1.value.sequence)
            })
            let delivery = deliveries.indices.filter { deliveries[$0].at <= end }.min(by: {
                (deliveries[$0].at, deliveries[$0].sequence) < (deliveries[$1].at, deliveries[$1].sequence)
            })
            if let delivery,
                timer.map({
                    (deliveries[delivery].at, deliveries[delivery].sequence) < ($0.value.at, $0.value.sequence)
                }) ?? true
            {
                let entry = deliveries.remove(at: delivery)
                now = max(now, entry.at)
                receive(entry.request, from: entry.sender)
            } else if let (key, entry) = timer {
                timers[key] = nil
                now = max(now, entry.at)
                switch key {
                case .discovery(let station, let timer): handleDiscovery(station, .timerFired(timer))
                case .synchronization(let station, let timer): handleSynchronization(station, .timerFired(timer))
                }
            } else {
                break
            }
        }
        now = max(now, end)
    }

    /// Delivers frames still on the way, without firing timers.
    mutating func settle() {
        while !deliveries.isEmpty {
            let entry = deliveries.removeFirst()
            now = max(now, entry.at)
            receive(entry.request, from: entry.sender)
        }
    }

    mutating func handleDiscovery(_ station: Int, _ event: DiscoveryEvent) {
        let actions = stations[station].discovery.handle(event, now: now, rng: &rng)
        for action in actions {
            discoveryActions.append((station, now, action))
            switch action {
            case .transmit(let request): deliver(request, from: station)
            case .arm(let timer, let at): arm(.discovery(station, timer), at: at)
            case .cancel(let timer): timers[.discovery(station, timer)] = nil
            case .notify(.listen(let channels)): stations[station].listening = channels
            case .notify(let notification): notifications.append((station, now, notification))
            }
        }
    }

    mutating func handleSynchronization(_ station: Int, _ event: SynchronizationEvent) {
        guard let actions = stations[station].synchronization?.handle(event, now: now, rng: &rng) else { return }
        for action in actions {
            switch action {
            case .transmit(let request): deliver(request, from: station)
            case .arm(let timer, let at): arm(.synchronization(station, timer), at: at)
            case .cancel(let timer): timers[.synchronization(station, timer)] = nil
            case .notify(.listen(let channels)): stations[station].listening = channels
            case .notify(let notification):
                synchronizationNotifications.append((station, now, notification))
                switch notification {
                case .discoveryWindowStarted(let window): handleDiscovery(station, .discoveryWindowStarted(window))
                case .discoveryWindowEnded(let window): handleDiscovery(station, .discoveryWindowEnded(window))
                default: break
                }
            }
        }
    }

    private mutating func arm(_ key: TimerKey, at instant: Instant) {
        sequence += 1
        timers[key] = (instant, sequence)
    }

    private mutating func deliver(_ request: TxRequest, from sender: Int) {
        transmissions.append(Transmission(station: sender, time: now, request: request))
        sequence += 1
        deliveries.append((now + latency, sequence, sender, request))
    }

    private mutating func receive(_ request: TxRequest, from sender: Int) {
        var acknowledged = false
        let receiver = ReceivedFrame(
            bytes: request.frame,
            info: RxInfo(channel: request.channel, rssiDBm: 0, timestamp: now)
        )
        for index in stations.indices where index != sender && stations[index].listening.contains(request.channel) {
            guard var received = receiver else { continue }
            received.info.rssiDBm = rssi[[sender, index]] ?? defaultRSSI
            if received.frame.header.address1 == stations[index].discovery.address { acknowledged = true }
            handleSynchronization(index, .received(received))
            handleDiscovery(index, .received(received))
        }
        if let receiver, !receiver.frame.header.address1.isGroup {
            handleDiscovery(
                sender,
                .transmitted(TxStatus(cookie: request.cookie, acknowledged: acknowledged, timestamp: now))
            )
        }
    }

    // MARK: Reading what happened

    func results(_ station: Int) -> [DiscoveryResult] {
        notifications.compactMap { entry in
            guard entry.station == station, case .discoveryResult(let result) = entry.notification else { return nil }
            return result
        }
    }

    func replies(_ station: Int) -> [SubscriberReply] {
        notifications.compactMap { entry in
            guard entry.station == station, case .replied(let reply) = entry.notification else { return nil }
            return reply
        }
    }

    func terminations(_ station: Int) -> [(instanceID: UInt8, role: ServiceRole, reason: TerminationReason)] {
        notifications.compactMap { entry in
            guard entry.station == station, case .terminated(let id, let role, let reason) = entry.notification else {
                return nil
            }
            return (id, role, reason)
        }
    }

    func frames(from station: Int) -> [(time: Instant, frame: ManagementFrame, channel: NANChannel)] {
        transmissions.compactMap { entry in
            guard entry.station == station, let frame = try? IEEE80211Frame(bytes: entry.request.frame).managementFrame
            else { return nil }
            return (entry.time, frame, entry.request.channel)
        }
    }
}

enum DiscoveryTestSupport {
    static let publisher = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)
    static let subscriber = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02)
    static let stranger = MACAddress(0x02, 0xC0, 0x00, 0x00, 0x00, 0x03)
    static let service = "_drone-service._udp"

    /// Octets from a hex literal written in a test; a typo is a test bug, so it traps.
    static func hex(_ text: String) -> [UInt8] {
        guard let bytes = HexString.decode(text.filter { !$0.isWhitespace }) else {
            fatalError("bad hex literal in test: \(text)")
        }
        return bytes
    }

    /// A matching filter from its wire form (`<len><value>...`), as hostap's tests write them.
    static func filter(_ wireHex: String?) -> MatchingFilter? {
        guard let wireHex else { return nil }
        return try? MatchingFilter(wireBytes: hex(wireHex), structure: "test filter")
    }

    static func attributes(of frame: ManagementFrame) -> [NANAttribute] {
        guard case .serviceDiscovery(let sdf) = frame.body else { return [] }
        return sdf.attributes
    }

    static func descriptor(of frame: ManagementFrame) -> ServiceDescriptorAttribute? {
        for case .serviceDescriptor(let sda) in attributes(of: frame) { return sda }
        return nil
    }

    /// A publisher and a subscriber on the USD wire.
    static func pair(seed: UInt64 = 1, reportsRejected: Bool = false) -> TestWire {
        var wire = TestWire(seed: seed)
        wire.addStation(publisher)
        wire.addStation(subscriber, reportsRejected: reportsRejected)
        return wire
    }
}

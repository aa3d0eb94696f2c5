import AwareCore
import AwareWire

@testable import AwareProtocol

/// A phone's ``BootstrapRequester`` and an accessory's ``BootstrapResponder`` joined by an
/// instant, optionally lossy air under virtual time: each one's follow-ups reach the other as
/// ``FollowUpMessage``s (local and peer instance swapped), timers fire in time order.
struct BootstrapLink {
    static let phone = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02)
    static let accessory = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)
    static let stranger = MACAddress(0x02, 0xC0, 0x00, 0x00, 0x00, 0x03)
    /// The phone's subscribe and the accessory's publish instance, as in the hostap session.
    static let subscribeID: UInt8 = 1
    static let publishID: UInt8 = 1

    var requester: BootstrapRequester
    var responder: BootstrapResponder
    var now = Instant.zero
    var rng = SeededGenerator(seed: 1)
    var requesterTimers: [BootstrapTimer: Instant] = [:]
    var responderTimers: [BootstrapTimer: Instant] = [:]
    var requesterLog: [(time: Instant, notification: BootstrapRequesterNotification)] = []
    var responderLog: [(time: Instant, notification: BootstrapResponderNotification)] = []
    var sentByRequester: [(time: Instant, followUp: FollowUpRequest)] = []
    var sentByResponder: [(time: Instant, followUp: FollowUpRequest)] = []
    /// When set, the accessory's owner answers every authorization request at once.
    var decision: BootstrapDecision?
    /// Transmissions the air loses, counted from the next one.
    var loseFromRequester = 0
    var loseFromResponder = 0

    init(
        offered: BootstrappingMethods = .pinCodeDisplay,
        autoAccept: BootstrappingMethods = [.opportunistic],
        comebackAfterTU: UInt16 = 200,
        decision: BootstrapDecision? = .authorize
    ) {
        requester = BootstrapRequester()
        responder = BootstrapResponder(
            configuration: BootstrapResponderConfiguration(
                offered: offered,
                autoAccept: autoAccept,
                comebackAfterTU: comebackAfterTU
            )
        )
        self.decision = decision
    }

    static func target(_ method: BootstrappingMethods, token: UInt8? = nil) -> BootstrapTarget {
        BootstrapTarget(
            peerAddress: accessory,
            localInstanceID: subscribeID,
            peerInstanceID: publishID,
            method: method,
            dialogToken: token
        )
    }

    var requesterNotifications: [BootstrapRequesterNotification] { requesterLog.map(\.notification) }
    var responderNotifications: [BootstrapResponderNotification] { responderLog.map(\.notification) }
    var requestsSent: [PairingBootstrappingAttribute] { sentByRequester.compactMap { $0.followUp.npba } }
    var responsesSent: [PairingBootstrappingAttribute] { sentByResponder.compactMap { $0.followUp.npba } }

    mutating func start(_ target: BootstrapTarget) {
        let actions = requester.handle(.start(target), now: now, rng: &rng)
        applyRequester(actions)
    }

    mutating func decide(_ decision: BootstrapDecision, for peer: MACAddress = phone) {
        applyResponder(responder.handle(.decide(peer: peer, decision), now: now, rng: &rng))
    }

    mutating func run(for interval: Interval) {
        let end = now + interval
        while true {
            let nextRequester = requesterTimers.filter { $0.value <= end }.min { $0.value < $1.value }
            let nextResponder = responderTimers.filter { $0.value <= end }.min { $0.value < $1.value }
            if let (timer, at) = nextRequester, nextResponder.map({ at <= $0.value }) ?? true {
                requesterTimers[timer] = nil
                now = max(now, at)
                applyRequester(requester.handle(.timerFired(timer), now: now, rng: &rng))
            } else if let (timer, at) = nextResponder {
                responderTimers[timer] = nil
                now = max(now, at)
                applyResponder(responder.handle(.timerFired(timer), now: now, rng: &rng))
            } else {
                break
            }
        }
        now = max(now, end)
    }

    /// What a discovery engine would hand up for `followUp`, sent by `sender`.
    static func message(_ followUp: FollowUpRequest, from sender: MACAddress, at time: Instant) -> FollowUpMessage {
        FollowUpMessage(
            localInstanceID: followUp.peerInstanceID,
            peerAddress: sender,
            peerInstanceID: followUp.localInstanceID,
            serviceSpecificInfo: nil,
            descriptorServiceInfo: nil,
            attributes: followUp.attributes,
            rssiDBm: -50,
            timestamp: time
        )
    }

    /// Frames reach the peer after every action of the batch that sent them has been applied.
    mutating func applyRequester(_ actions: [BootstrapRequesterAction]) {
        var delivered: [FollowUpMessage] = []
        for action in actions {
            switch action {
            case .transmit(let followUp):
                sentByRequester.append((now, followUp))
                if loseFromRequester > 0 {
                    loseFromRequester -= 1
                } else {
                    delivered.append(Self.message(followUp, from: Self.phone, at: now))
                }
            case .arm(let timer, let at): requesterTimers[timer] = at
            case .cancel(let timer): requesterTimers[timer] = nil
            case .notify(let notification): requesterLog.append((now, notification))
            }
        }
        for message in delivered {
            applyResponder(responder.handle(.received(message), now: now, rng: &rng))
        }
    }

    mutating func applyResponder(_ actions: [BootstrapResponderAction]) {
        var asked: [MACAddress] = []
        var delivered: [FollowUpMessage] = []
        for action in actions {
            switch action {
            case .transmit(let followUp):
                sentByResponder.append((now, followUp))
                if loseFromResponder > 0 {
                    loseFromResponder -= 1
                } else {
                    delivered.append(Self.message(followUp, from: Self.accessory, at: now))
                }
            case .arm(let timer, let at): responderTimers[timer] = at
            case .cancel(let timer): responderTimers[timer] = nil
            case .notify(let notification):
                responderLog.append((now, notification))
                if case .authorizationRequested(let peer, _, _) = notification { asked.append(peer) }
            }
        }
        for message in delivered {
            applyRequester(requester.handle(.received(message), now: now, rng: &rng))
        }
        if let decision {
            for peer in asked { decide(decision, for: peer) }
        }
    }
}

extension FollowUpRequest {
    var npba: PairingBootstrappingAttribute? {
        for case .pairingBootstrapping(let npba) in attributes { return npba }
        return nil
    }
}

enum BootstrapTestSupport {
    /// Octets from a hex literal written in a test; a typo is a test bug, so it traps.
    static func hex(_ text: String) -> [UInt8] {
        guard let bytes = HexString.decode(text.filter { !$0.isWhitespace }) else {
            fatalError("bad hex literal in test: \(text)")
        }
        return bytes
    }

    /// The whole attribute on the wire: ID, length, body.
    static func wire(_ npba: PairingBootstrappingAttribute?) -> [UInt8] {
        guard let npba else { return [] }
        var writer = WireWriter()
        NANAttribute.pairingBootstrapping(npba).write(to: &writer)
        return writer.bytes
    }

    /// A follow-up carrying `npba` from `peer`, addressed to instance 1.
    static func message(
        _ npba: PairingBootstrappingAttribute,
        from peer: MACAddress,
        localInstanceID: UInt8 = 1,
        peerInstanceID: UInt8 = 1
    ) -> FollowUpMessage {
        FollowUpMessage(
            localInstanceID: localInstanceID,
            peerAddress: peer,
            peerInstanceID: peerInstanceID,
            serviceSpecificInfo: nil,
            descriptorServiceInfo: nil,
            attributes: [.pairingBootstrapping(npba)],
            rssiDBm: -50,
            timestamp: .zero
        )
    }
}

/// Hands out the values it was given, then zeros: for tests that need a known cookie.
struct ScriptedGenerator: RandomNumberGenerator {
    var values: [UInt64]

    mutating func next() -> UInt64 {
        values.isEmpty ? 0 : values.removeFirst()
    }
}

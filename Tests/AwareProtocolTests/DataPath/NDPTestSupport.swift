import AwareCore
import AwareCrypto
import AwareProtocol
import AwareTestSupport
import AwareWire

/// Addresses, keys and an in-memory wire for the data path tests.
enum NDPTest {
    static let phoneNMI = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let phoneNDI = MACAddress(0x02, 0xB0, 0, 0, 0x01, 0x02)
    static let accessoryNMI = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let accessoryNDI = MACAddress(0x02, 0xA0, 0, 0, 0x01, 0x01)
    static let strangerNMI = MACAddress(0x02, 0xC0, 0, 0, 0, 0x03)
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
    static let serviceID = ServiceID(serviceName: "_drone-service._udp")
    static let ndPMK = [UInt8](repeating: 0x5A, count: 32)
    static let iNonce = [UInt8](repeating: 0x11, count: 32)
    static let rNonce = [UInt8](repeating: 0x22, count: 32)
    static let phoneInterfaceID: [UInt8] = [0x02, 0xB0, 0x00, 0xFF, 0xFE, 0x00, 0x01, 0x02]
    static let accessoryInterfaceID: [UInt8] = [0x02, 0xA0, 0x00, 0xFF, 0xFE, 0x00, 0x01, 0x01]
    static let allSlots = NDPSchedule(channel: .channel149, slots: Array(0..<32))

    static func initiator(
        security: NDPSecurity = .pairing(ndPMK: ndPMK, suite: .ncsPKPASN128),
        proposal: NDPSchedule = allSlots,
        potential: NDPSchedule? = nil,
        qos: NDLQoSAttribute? = nil,
        usesNDPE: Bool = true,
        confirmRequired: Bool = true,
        dialogToken: UInt8 = 1,
        ndpID: UInt8 = 1,
        localNMI: MACAddress = phoneNMI
    ) -> NDPInitiatorConfiguration {
        NDPInitiatorConfiguration(
            localNMI: localNMI,
            localNDI: phoneNDI,
            peerNMI: accessoryNMI,
            clusterID: clusterID,
            publishID: 1,
            serviceID: serviceID,
            security: security,
            proposal: proposal,
            potential: potential,
            qos: qos,
            interfaceIdentifier: phoneInterfaceID,
            usesNDPE: usesNDPE,
            dialogToken: dialogToken,
            ndpID: ndpID,
            confirmRequired: confirmRequired
        )
    }

    static func responder(
        availability: NDPSchedule = allSlots,
        policy: NDPResponderPolicy = NDPResponderPolicy(),
        credentials: [MACAddress: NDPSecurity] = [phoneNMI: .pairing(ndPMK: ndPMK, suite: .ncsPKPASN128)],
        defaultCredential: NDPSecurity? = nil,
        minimumSlots: Int = 1
    ) -> NDPResponderConfiguration {
        NDPResponderConfiguration(
            localNMI: accessoryNMI,
            localNDI: accessoryNDI,
            clusterID: clusterID,
            availability: availability,
            interfaceIdentifier: accessoryInterfaceID,
            policy: policy,
            credentials: credentials,
            defaultCredential: defaultCredential,
            serviceIDs: [1: serviceID],
            minimumSlots: minimumSlots
        )
    }

    /// The NAF of an MPDU and its A2; nil when it does not parse as one.
    static func naf(_ mpdu: [UInt8]) -> (frame: NANActionFrame, transmitter: MACAddress)? {
        guard let frame = try? IEEE80211Frame(bytes: mpdu), let management = frame.managementFrame,
            case .nanAction(let naf) = management.body
        else { return nil }
        return (naf, management.header.address2)
    }

    static func transmitted(_ actions: [NDPAction]) -> [[UInt8]] {
        actions.compactMap { if case .transmit(let bytes) = $0 { bytes } else { nil } }
    }

    static func established(_ actions: [NDPAction]) -> NDPLink? {
        actions.lazy.compactMap { if case .notify(.established(let link)) = $0 { link } else { nil } }.first
    }

    static func failure(_ actions: [NDPAction]) -> NDPFailure? {
        actions.lazy.compactMap { if case .notify(.failed(let failure)) = $0 { failure } else { nil } }.first
    }

    /// Both machines after an exchange over a lossless wire, with everything each one did.
    struct Exchange {
        var initiator: NDPInitiator
        var responder: NDPResponder?
        var initiatorActions: [NDPAction] = []
        var responderActions: [NDPAction] = []
        /// Every frame on the air, in order: (sender is the initiator, NAF).
        var frames: [(fromInitiator: Bool, frame: NANActionFrame)] = []

        var initiatorLink: NDPLink? { NDPTest.established(initiatorActions) }
        var responderLink: NDPLink? { NDPTest.established(responderActions) }
        var initiatorFailure: NDPFailure? { NDPTest.failure(initiatorActions) }
        var responderFailure: NDPFailure? { NDPTest.failure(responderActions) }
    }

    static func exchange(
        _ initiatorConfiguration: NDPInitiatorConfiguration,
        _ responderConfiguration: NDPResponderConfiguration,
        iNonce: [UInt8] = iNonce,
        rNonce: [UInt8] = rNonce
    ) -> Exchange {
        var exchange = Exchange(initiator: NDPInitiator(configuration: initiatorConfiguration, nonce: iNonce))
        let now = Instant.zero
        var actions = exchange.initiator.start(now: now)
        exchange.initiatorActions += actions
        var toResponder = transmitted(actions)
        var toInitiator: [[UInt8]] = []
        while !toResponder.isEmpty || !toInitiator.isEmpty {
            for mpdu in toResponder {
                guard let (frame, transmitter) = naf(mpdu) else { continue }
                exchange.frames.append((true, frame))
                if var responder = exchange.responder {
                    actions = responder.handle(.received(frame, transmitter: transmitter), now: now)
                    exchange.responder = responder
                } else if let responder = NDPResponder(
                    configuration: responderConfiguration,
                    request: frame,
                    transmitter: transmitter,
                    nonce: rNonce,
                    now: now
                ) {
                    exchange.responder = responder
                    actions = responder.initialActions
                } else {
                    actions = []
                }
                exchange.responderActions += actions
                toInitiator += transmitted(actions)
            }
            toResponder = []
            for mpdu in toInitiator {
                guard let (frame, transmitter) = naf(mpdu) else { continue }
                exchange.frames.append((false, frame))
                actions = exchange.initiator.handle(.received(frame, transmitter: transmitter), now: now)
                exchange.initiatorActions += actions
                toResponder += transmitted(actions)
            }
            toInitiator = []
        }
        return exchange
    }
}

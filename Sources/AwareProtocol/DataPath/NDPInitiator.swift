import AwareCore
import AwareCrypto
import AwareWire

/// The NDP initiator, the phone's side (subscriber, nan-wire-reference.md 4.1): Data Path
/// Request out, Response checked, Confirm out, Key Installment checked. Sans-I/O: events in,
/// actions out; the INonce is passed in, the clock is the `now` of each call.
///
/// ```swift
/// var initiator = NDPInitiator(configuration: configuration, nonce: iNonce)
/// var actions = initiator.start(now: now)                     // [.transmit(request), .arm(.awaitingResponse, ...)]
/// actions = initiator.handle(.received(response, transmitter: accessory), now: later)
/// ```
public struct NDPInitiator: Sendable {
    public let configuration: NDPInitiatorConfiguration
    let nonce: [UInt8]
    var state: State = .idle

    enum State: Sendable {
        case idle
        case awaitingResponse(Pending)
        case awaitingKeyInstall(Pending, confirm: [UInt8], link: NDPLink)
        case established(NDPLink)
        case finished
    }

    /// What the exchange has built so far.
    struct Pending: Sendable {
        var requestMPDU: [UInt8]
        /// The m1 NAF body, for the auth token (4.2).
        var requestBody: [UInt8]
        var keys: Keys?
        var transmissions = 1
    }

    struct Keys: Sendable {
        var suite: NANSecurityCipherSuite
        var pmk: [UInt8]
        var pmkid: [UInt8]
        var ptk: NDPPTK?
        var rNonce: [UInt8] = []
    }

    /// `nonce` is the INonce (32 octets), used only when the data path is secure.
    public init(configuration: NDPInitiatorConfiguration, nonce: [UInt8]) {
        self.configuration = configuration
        self.nonce = nonce
    }

    public var id: NDPLink.ID { NDPLink.ID(peerNMI: configuration.peerNMI, ndpID: configuration.ndpID) }

    /// The established link, if any.
    public var link: NDPLink? {
        if case .established(let link) = state { link } else { nil }
    }

    public mutating func start(now: Instant) -> [NDPAction] {
        guard case .idle = state else { return [] }
        var keys: Keys?
        if let suite = configuration.security.suite {
            do throws(KeyDerivationError) {
                guard nonce.count == 32 else {
                    throw .invalidLength(field: "INonce", expected: 32, actual: nonce.count)
                }
                let pmk = try configuration.security.pmk(
                    suite: suite,
                    serviceID: configuration.serviceID,
                    publisherNMI: configuration.peerNMI
                )
                let pmkid = try NDPMK.pmkid(
                    pmk: pmk,
                    initiatorNMI: configuration.localNMI.octets,
                    responderNMI: configuration.peerNMI.octets,
                    serviceID: configuration.serviceID.octets,
                    suite: suite
                )
                keys = Keys(suite: suite, pmk: pmk, pmkid: pmkid)
            } catch {
                state = .finished
                return [.notify(.failed(NDPFailure(.internalError("\(error)"))))]
            }
        }
        let request = requestFrame(keys: keys)
        let pending = Pending(requestMPDU: mpdu(request), requestBody: request.wireBytes, keys: keys)
        state = .awaitingResponse(pending)
        return [
            .transmit(pending.requestMPDU),
            .arm(.awaitingResponse, at: now + configuration.retransmission.interval),
        ]
    }

    public mutating func handle(_ event: NDPEvent, now: Instant) -> [NDPAction] {
        switch event {
        case .received(let frame, let transmitter):
            guard transmitter == configuration.peerNMI, let message = NDPMessage(frame),
                message.common.initiatorNDI == configuration.localNDI, message.common.ndpID == configuration.ndpID
            else { return [] }
            return received(message, now: now)
        case .timerFired(let timer):
            return timerFired(timer, now: now)
        case .terminate(let reason):
            return terminate(reason: reason)
        }
    }

    private mutating func received(_ message: NDPMessage, now: Instant) -> [NDPAction] {
        switch (state, message.frame.subtype) {
        case (.awaitingResponse(let pending), .dataPathResponse):
            return response(message, pending: pending, now: now)
        case (.awaitingKeyInstall(let pending, _, let link), .dataPathKeyInstallment):
            return keyInstallment(message, pending: pending, link: link)
        case (.awaitingResponse, .dataPathTermination), (.awaitingKeyInstall, .dataPathTermination),
            (.established, .dataPathTermination):
            guard message.common.type == .terminate else { return [] }
            let timer: [NDPAction] =
                switch state {
                case .awaitingResponse: [.cancel(.awaitingResponse)]
                case .awaitingKeyInstall: [.cancel(.awaitingKeyInstall)]
                default: []
                }
            state = .finished
            return timer + [.notify(.terminated(id, reason: message.common.reasonCode, byPeer: true))]
        default:
            return []
        }
    }

    private mutating func timerFired(_ timer: NDPTimer, now: Instant) -> [NDPAction] {
        let retransmission = configuration.retransmission
        switch (state, timer) {
        case (.awaitingResponse(var pending), .awaitingResponse):
            guard pending.transmissions < retransmission.maxTransmissions else {
                state = .finished
                return [.notify(.failed(NDPFailure(.timeout(timer))))]
            }
            pending.transmissions += 1
            state = .awaitingResponse(pending)
            return [.transmit(pending.requestMPDU), .arm(timer, at: now + retransmission.interval)]
        case (.awaitingKeyInstall(var pending, let confirm, let link), .awaitingKeyInstall):
            guard pending.transmissions < retransmission.maxTransmissions else {
                state = .finished
                return [.notify(.failed(NDPFailure(.timeout(timer))))]
            }
            pending.transmissions += 1
            state = .awaitingKeyInstall(pending, confirm: confirm, link: link)
            return [.transmit(confirm), .arm(timer, at: now + retransmission.interval)]
        default:
            return []
        }
    }

    private mutating func terminate(reason: NANReasonCode) -> [NDPAction] {
        var actions: [NDPAction]
        switch state {
        case .awaitingResponse: actions = [.cancel(.awaitingResponse)]
        case .awaitingKeyInstall: actions = [.cancel(.awaitingKeyInstall)]
        case .established: actions = []
        case .idle, .finished: return []
        }
        state = .finished
        actions.append(.transmit(mpdu(terminationFrame(reason: reason))))
        actions.append(.notify(.terminated(id, reason: reason, byPeer: false)))
        return actions
    }

    func mpdu(_ frame: NANActionFrame) -> [UInt8] {
        NDPFrames.mpdu(
            frame,
            to: configuration.peerNMI,
            from: configuration.localNMI,
            cluster: configuration.clusterID
        )
    }
}

extension NDPInitiator: ProtocolMachine {
    /// The initiator draws no randomness: its INonce comes with it.
    public mutating func handle(
        _ event: NDPEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [NDPAction] {
        handle(event, now: now)
    }

    public static func timerEvent(_ timer: NDPTimer) -> NDPEvent { .timerFired(timer) }
}

/// The phone's side of one data path: it subscribed, found the accessory's publish instance,
/// and now asks for a data path (nan-wire-reference.md 4.1).
public struct NDPInitiatorConfiguration: Hashable, Sendable {
    public var localNMI: MACAddress
    public var localNDI: MACAddress
    public var peerNMI: MACAddress
    /// A3 of every NAF (1.3).
    public var clusterID: MACAddress
    public var publishID: UInt8
    public var serviceID: ServiceID
    public var security: NDPSecurity
    /// The committed schedule we propose.
    public var proposal: NDPSchedule
    /// What we could do beyond the proposal: a counter-proposal inside it is accepted. nil
    /// means every slot of the proposal's channel.
    public var potential: NDPSchedule?
    /// The NAN Availability attributes the request carries instead of the one built from
    /// ``proposal`` and ``potential`` (2.7): a proposal laid out another way, over several maps,
    /// channels or periods (``NDPProposalShape``). nil sends the built one.
    public var proposalAttributes: [AvailabilityAttribute]?
    /// NDL QoS sent with the request (``PerformanceMode/ndlQoS`` signals a mode); nil sends none.
    public var qos: NDLQoSAttribute?
    /// The IPv6 link-local interface identifier (8 octets, NDPE TLV type 0); nil sends no TLV
    /// (hostap's request in session A carries none).
    public var interfaceIdentifier: [UInt8]?
    /// NDPE (0x29) instead of NDP (0x10): what the peer's Device Capability says it reads (2.6).
    public var usesNDPE: Bool
    /// An NDC to propose in the request (2.8), sent as a Selected NDC with NDL Control b2;
    /// nil proposes none and lets the responder choose, as hostap does.
    public var proposedNDC: NDCSchedule?
    public var dialogToken: UInt8
    public var ndpID: UInt8
    /// Set Confirm Required even without security.
    public var confirmRequired: Bool
    /// The category of every NAF: 9 (Protected Dual) to a paired peer, 4 otherwise (1.1, 3.8).
    public var category: NANActionCategory
    /// Attributes written first in every NAF: Device Capability and DCEA (4.1).
    public var leadingAttributes: [NANAttribute]
    public var availabilityStyle: NDPAvailabilityStyle
    /// The radio's HT/VHT capabilities, sent last in the Request (initiator) or an accepting
    /// Response (responder), as hostap does; nil sends none (hostap's session A recording has none).
    public var elementContainer: ElementContainerAttribute?
    /// The Key Replay Counter of message 1; message 3 uses the next value (4.2).
    public var replayCounter: UInt64
    public var retransmission: NDPRetransmission

    public init(
        localNMI: MACAddress,
        localNDI: MACAddress,
        peerNMI: MACAddress,
        clusterID: MACAddress,
        publishID: UInt8,
        serviceID: ServiceID,
        security: NDPSecurity,
        proposal: NDPSchedule,
        potential: NDPSchedule? = nil,
        proposalAttributes: [AvailabilityAttribute]? = nil,
        qos: NDLQoSAttribute? = nil,
        interfaceIdentifier: [UInt8]? = nil,
        usesNDPE: Bool = true,
        proposedNDC: NDCSchedule? = nil,
        dialogToken: UInt8 = 1,
        ndpID: UInt8 = 1,
        confirmRequired: Bool = true,
        category: NANActionCategory? = nil,
        leadingAttributes: [NANAttribute] = [],
        availabilityStyle: NDPAvailabilityStyle = NDPAvailabilityStyle(),
        elementContainer: ElementContainerAttribute? = nil,
        replayCounter: UInt64 = 1,
        retransmission: NDPRetransmission = NDPRetransmission()
    ) {
        self.localNMI = localNMI
        self.localNDI = localNDI
        self.peerNMI = peerNMI
        self.clusterID = clusterID
        self.publishID = publishID
        self.serviceID = serviceID
        self.security = security
        self.proposal = proposal
        self.potential = potential
        self.proposalAttributes = proposalAttributes
        self.qos = qos
        self.interfaceIdentifier = interfaceIdentifier
        self.usesNDPE = usesNDPE
        self.proposedNDC = proposedNDC
        self.dialogToken = dialogToken
        self.ndpID = ndpID
        self.confirmRequired = confirmRequired
        if let category {
            self.category = category
        } else if case .pairing = security {
            self.category = .protectedDualOfPublicAction
        } else {
            self.category = .publicAction
        }
        self.leadingAttributes = leadingAttributes
        self.availabilityStyle = availabilityStyle
        self.elementContainer = elementContainer
        self.replayCounter = replayCounter
        self.retransmission = retransmission
    }

    /// What a counter-proposal must fit in.
    var capability: NDPSchedule {
        potential
            ?? NDPSchedule(
                channel: proposal.channel,
                slots: Array(0..<NDPSchedule.slotsPerPeriod),
                bandwidthMHz: proposal.bandwidthMHz
            )
    }
}

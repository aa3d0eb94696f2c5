import AwareCore
import AwareCrypto
import AwareWire

/// The NDP responder, the accessory's side (publisher, nan-wire-reference.md 4.1). One value per
/// received Data Path Request: the initializer applies the policy and builds the Response (or
/// the rejection), which ``initialActions`` holds; ``handle(_:now:)`` takes the Confirm and
/// answers with the Key Installment.
///
/// ```swift
/// guard var responder = NDPResponder(configuration: configuration, request: naf,
///                                    transmitter: phone, nonce: rNonce, now: now) else { return }
/// send(responder.initialActions)                        // [.transmit(response), .arm(.awaitingConfirm, ...)]
/// send(responder.handle(.received(confirm, transmitter: phone), now: later))
/// ```
public struct NDPResponder: Sendable {
    public let configuration: NDPResponderConfiguration
    let nonce: [UInt8]
    let request: Request
    var state: State
    /// What the request called for: a response and a timer, or a rejection and a failure.
    public private(set) var initialActions: [NDPAction] = []

    /// What is known of the request.
    struct Request: Sendable {
        var peerNMI: MACAddress
        var initiatorNDI: MACAddress
        var ndpID: UInt8
        var dialogToken: UInt8
        var publishID: UInt8
        var category: NANActionCategory
        /// Answer with NDPE (0x29) rather than NDP (0x10): the requester reads it (2.6).
        var extended: Bool
        /// The m1 NAF body, for the auth token (4.2).
        var body: [UInt8]
    }

    enum State: Sendable {
        case awaitingConfirm(Accepted)
        /// `answered` keeps the Confirm we took and our Key Installment: a Confirm sent again
        /// (the initiator missed our answer) gets the same answer.
        case established(NDPLink, answered: (confirm: [UInt8], keyInstall: [UInt8])?)
        case finished
    }

    /// A response sent, waiting for the Confirm.
    struct Accepted: Sendable {
        var link: NDPLink
        var responseMPDU: [UInt8]
        /// The Availability of the Response, repeated in the Key Installment.
        var availability: NANAttribute
        var keys: Keys?
        var counterProposal: Bool
        var transmissions = 1
    }

    struct Keys: Sendable {
        var suite: NANSecurityCipherSuite
        var pmkid: [UInt8]
        var ptk: NDPPTK
        var iNonce: [UInt8]
        var replayCounter: UInt64
    }

    /// nil unless `request` is a Data Path Request (subtype 5 with an NDP or NDPE of type
    /// Request). `nonce` is the RNonce (32 octets).
    public init?(
        configuration: NDPResponderConfiguration,
        request frame: NANActionFrame,
        transmitter: MACAddress,
        nonce: [UInt8],
        now: Instant
    ) {
        guard frame.subtype == .dataPathRequest, let message = NDPMessage(frame), message.common.type == .request
        else { return nil }
        self.configuration = configuration
        self.nonce = nonce
        request = Request(
            peerNMI: transmitter,
            initiatorNDI: message.common.initiatorNDI,
            ndpID: message.common.ndpID,
            dialogToken: message.common.dialogToken,
            publishID: message.common.publishID ?? 0,
            category: frame.category,
            extended: configuration.policy.followsPeerNDPESupport ? message.senderReadsNDPE : true,
            body: message.body
        )
        state = .finished
        initialActions = respond(to: message, now: now)
    }

    public var id: NDPLink.ID { NDPLink.ID(peerNMI: request.peerNMI, ndpID: request.ndpID) }

    /// The category the request came with, which every NAF of this data path answers in.
    public var category: NANActionCategory { request.category }

    public var link: NDPLink? {
        if case .established(let link, _) = state { link } else { nil }
    }

    public mutating func handle(_ event: NDPEvent, now: Instant) -> [NDPAction] {
        switch event {
        case .received(let frame, let transmitter):
            guard transmitter == request.peerNMI, let message = NDPMessage(frame),
                message.common.initiatorNDI == request.initiatorNDI, message.common.ndpID == request.ndpID
            else { return [] }
            return received(message, now: now)
        case .timerFired(let timer):
            guard case .awaitingConfirm(var accepted) = state, timer == .awaitingConfirm else { return [] }
            guard accepted.transmissions < configuration.retransmission.maxTransmissions else {
                state = .finished
                return [.failed(NDPFailure(.timeout(timer)))]
            }
            accepted.transmissions += 1
            state = .awaitingConfirm(accepted)
            return [.transmit(accepted.responseMPDU), .arm(timer, at: now + configuration.retransmission.interval)]
        case .terminate(let reason):
            var actions: [NDPAction]
            switch state {
            case .awaitingConfirm: actions = [.cancel(.awaitingConfirm)]
            case .established: actions = []
            case .finished: return []
            }
            state = .finished
            actions.append(.transmit(mpdu(terminationFrame(reason: reason))))
            actions.append(.terminated(id, reason: reason, byPeer: false))
            return actions
        }
    }

    private mutating func received(_ message: NDPMessage, now: Instant) -> [NDPAction] {
        switch (state, message.frame.subtype) {
        case (.awaitingConfirm(let accepted), .dataPathConfirm):
            return confirm(message, accepted: accepted)
        case (.awaitingConfirm(let accepted), .dataPathRequest):
            // The initiator did not hear our response: the same request again gets it again.
            guard message.common.dialogToken == request.dialogToken, message.body == request.body else { return [] }
            return [.transmit(accepted.responseMPDU)]
        case (.established(_, let answered?), .dataPathConfirm):
            return message.body == answered.confirm ? [.transmit(answered.keyInstall)] : []
        case (.awaitingConfirm, .dataPathTermination), (.established, .dataPathTermination):
            guard message.common.type == .terminate else { return [] }
            let timer: [NDPAction] = if case .awaitingConfirm = state { [.cancel(.awaitingConfirm)] } else { [] }
            state = .finished
            return timer + [.terminated(id, reason: message.common.reasonCode, byPeer: true)]
        default:
            return []
        }
    }

    func mpdu(_ frame: NANActionFrame) -> [UInt8] {
        NDPFrames.mpdu(frame, to: request.peerNMI, from: configuration.localNMI, cluster: configuration.clusterID)
    }
}

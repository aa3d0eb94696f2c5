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
                return [.failed(NDPFailure(.internalError("\(error)")))]
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
            return timer + [.terminated(id, reason: message.common.reasonCode, byPeer: true)]
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
                return [.failed(NDPFailure(.timeout(timer)))]
            }
            pending.transmissions += 1
            state = .awaitingResponse(pending)
            return [.transmit(pending.requestMPDU), .arm(timer, at: now + retransmission.interval)]
        case (.awaitingKeyInstall(var pending, let confirm, let link), .awaitingKeyInstall):
            guard pending.transmissions < retransmission.maxTransmissions else {
                state = .finished
                return [.failed(NDPFailure(.timeout(timer)))]
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
        actions.append(.terminated(id, reason: reason, byPeer: false))
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

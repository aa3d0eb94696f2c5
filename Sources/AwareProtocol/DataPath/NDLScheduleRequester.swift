import AwareCore
import AwareWire

/// The side that asks to change an established NDL's schedule: Schedule Request out (NDL
/// Request / Continued, a new dialog token, our proposal as committed availability), then the
/// Schedule Response: Accepted takes the responder's committed schedule; Continued is a
/// counter-proposal, answered with a Schedule Confirm (Accepted when it fits what we can do,
/// Rejected with NDL_UNACCEPTABLE otherwise); Rejected keeps the old schedule. MediaTek's
/// gen4m driver exchanges the frames this way; hostap neither sends nor reads them.
/// Sans-I/O like ``NDPInitiator``.
///
/// ```swift
/// var requester = NDLScheduleRequester(configuration: configuration, proposal: new, dialogToken: 2)
/// var actions = requester.start(now: now)   // [.transmit(request), .arm(.awaitingScheduleResponse, ...)]
/// actions = requester.handle(.received(response, transmitter: peer), now: later)   // [..., .notify(.agreed(...))]
/// ```
public struct NDLScheduleRequester: Sendable {
    public let configuration: NDLScheduleConfiguration
    /// The committed schedule proposed.
    public let proposal: NDPSchedule
    /// The NDL's dialog token for this exchange; it must differ from the previous exchange's, or
    /// the responder ignores the request.
    public let dialogToken: UInt8
    var state: State = .idle

    enum State: Sendable {
        case idle
        case awaitingResponse(request: [UInt8], transmissions: Int)
        case finished
    }

    public init(configuration: NDLScheduleConfiguration, proposal: NDPSchedule, dialogToken: UInt8) {
        self.configuration = configuration
        self.proposal = proposal
        self.dialogToken = dialogToken
    }

    public var isFinished: Bool { if case .finished = state { true } else { false } }

    public mutating func start(now: Instant) -> [NDLScheduleAction] {
        guard case .idle = state else { return [] }
        let request = configuration.mpdu(
            .scheduleRequest,
            committed: proposal,
            ndc: configuration.ndc.flatMap { proposal.contains($0.schedule) ? $0 : nil },
            ndl: (dialogToken, .request, .continued, .reserved),
            qos: configuration.qos
        )
        state = .awaitingResponse(request: request, transmissions: 1)
        return [.transmit(request), .arm(.awaitingScheduleResponse, at: now + configuration.retransmission.interval)]
    }

    public mutating func handle(_ event: NDLScheduleEvent, now: Instant) -> [NDLScheduleAction] {
        guard case .awaitingResponse(let request, let transmissions) = state else { return [] }
        switch event {
        case .timerFired(let timer):
            guard timer == .awaitingScheduleResponse else { return [] }
            guard transmissions < configuration.retransmission.maxTransmissions else {
                state = .finished
                return [.notify(.failed(NDPFailure(.timeout(timer))))]
            }
            state = .awaitingResponse(request: request, transmissions: transmissions + 1)
            return [.transmit(request), .arm(timer, at: now + configuration.retransmission.interval)]
        case .received(let frame, let transmitter):
            guard transmitter == configuration.peerNMI, frame.subtype == .scheduleResponse,
                let message = NDLScheduleMessage(frame), let ndl = message.ndl, ndl.type == .response,
                ndl.dialogToken == dialogToken
            else { return [] }
            return response(message, ndl: ndl)
        }
    }

    private mutating func response(_ message: NDLScheduleMessage, ndl: NDLAttribute) -> [NDLScheduleAction] {
        state = .finished
        let cancel = NDLScheduleAction.cancel(.awaitingScheduleResponse)
        if ndl.status == .rejected {
            let reason = ndl.reasonCode
            return [cancel, .notify(.failed(NDPFailure(.rejectedByPeer(reason), reason: reason)))]
        }
        let capability = configuration.availability
        let offered =
            message.schedule(on: proposal.channel) ?? message.schedule(on: capability.channel)
        let counterProposal = ndl.status == .continued
        let minimum = NDLScheduleDecision.neededSlots(minimumSlots: configuration.minimumSlots, qos: configuration.qos)
        let agreed = offered ?? (counterProposal ? nil : proposal)
        // What we proposed we can keep, whatever our availability says; a counter-proposal must
        // lie in our availability.
        let keepable = agreed.map { (!counterProposal && proposal.contains($0)) || capability.contains($0) } ?? false
        guard let agreed, keepable, agreed.slotsInFirstBlock >= minimum else {
            // A counter-proposal (or an accepted schedule) we cannot keep: Confirm Rejected.
            let reason: NANReasonCode = offered == nil ? .invalidAvailability : .ndlUnacceptable
            let confirm = configuration.mpdu(
                .scheduleConfirm,
                committed: configuration.current ?? proposal,
                ndc: nil,
                ndl: (dialogToken, .confirm, .rejected, reason)
            )
            return [cancel, .transmit(confirm), .notify(.failed(NDPFailure(.scheduleUnacceptable, reason: reason)))]
        }
        // The NDC the responder selects must lie in its committed schedule (2.8), as hostap
        // requires of a Data Path Response; without one the NDL's NDC is kept or reselected.
        let selected = message.ndc(on: agreed.channel)
        let ndc = selected.flatMap { agreed.contains($0.schedule) ? $0 : nil } ?? configuration.ndc(for: agreed)
        guard counterProposal else { return [cancel, .notify(.agreed(agreed, ndc: ndc))] }
        let confirm = configuration.mpdu(
            .scheduleConfirm,
            committed: agreed,
            ndc: ndc,
            ndl: (dialogToken, .confirm, .accepted, .reserved)
        )
        return [cancel, .transmit(confirm), .notify(.agreed(agreed, ndc: ndc))]
    }
}

extension NDLScheduleRequester: ProtocolMachine {
    /// The requester draws no randomness.
    public mutating func handle(
        _ event: NDLScheduleEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [NDLScheduleAction] {
        handle(event, now: now)
    }

    public static func timerEvent(_ timer: NDPTimer) -> NDLScheduleEvent { .timerFired(timer) }
}

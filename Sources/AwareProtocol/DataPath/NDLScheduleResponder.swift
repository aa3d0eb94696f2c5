import AwareCore
import AwareWire

/// The side asked to change an established NDL's schedule. A Schedule Request counts only with
/// an NDL attribute of Type Request, Status Continued and a dialog token other than the previous
/// exchange's (MediaTek's gen4m ignores the same token again); its availability is judged like
/// a Data Path Request's (``NDLScheduleDecision``). The Schedule Response says Accepted (the
/// intersection, in force at once), Continued (our availability as a counter-proposal, in force
/// once a Schedule Confirm Accepted comes) or Rejected with a reason (the old schedule stays).
/// Sans-I/O like ``NDPResponder``.
public struct NDLScheduleResponder: Sendable {
    public let configuration: NDLScheduleConfiguration
    public let dialogToken: UInt8
    /// The first answer: the Schedule Response, and the outcome when it needs no Confirm.
    public private(set) var initialActions: [NDLScheduleAction] = []
    let requestBody: [UInt8]
    var state: State = .finished(response: [])

    enum State: Sendable {
        case awaitingConfirm(response: [UInt8], offered: NDPSchedule, ndc: NDCSchedule?, transmissions: Int)
        /// `response` answers the same request sent again (the requester missed it).
        case finished(response: [UInt8])
    }

    /// nil unless `frame` is a Schedule Request from the configuration's peer with an NDL
    /// Request / Continued whose dialog token is not `previousDialogToken`.
    public init?(
        configuration: NDLScheduleConfiguration,
        request frame: NANActionFrame,
        transmitter: MACAddress,
        previousDialogToken: UInt8?,
        now: Instant
    ) {
        guard transmitter == configuration.peerNMI, frame.subtype == .scheduleRequest,
            let message = NDLScheduleMessage(frame), let ndl = message.ndl, ndl.type == .request,
            ndl.status == .continued, ndl.dialogToken != previousDialogToken
        else { return nil }
        self.configuration = configuration
        dialogToken = ndl.dialogToken
        requestBody = frame.wireBytes
        initialActions = respond(to: message, now: now)
    }

    public var isFinished: Bool { if case .finished = state { true } else { false } }

    private mutating func respond(to message: NDLScheduleMessage, now: Instant) -> [NDLScheduleAction] {
        var own = configuration.availability
        // A mode switch in the middle of a session: the requester's QoS asks for the other mode.
        if !configuration.modeAvailability.isEmpty, let qos = message.qos {
            let requested = PerformanceMode(ndlQoS: qos)
            guard let schedule = configuration.modeAvailability[requested] else { return reject(.qosUnacceptable) }
            own = schedule
        }
        guard let schedules = NDPSchedule.schedules(in: message.availabilities, kinds: [.committed, .conditional]),
            !schedules.isEmpty
        else { return reject(.invalidAvailability) }
        let proposal = schedules.first { $0.channel.number == own.channel.number }
        let needed = NDLScheduleDecision.neededSlots(minimumSlots: configuration.minimumSlots, qos: message.qos)
        let decision = NDLScheduleDecision(
            own: own,
            proposal: proposal,
            needed: needed,
            maximumBandwidthMHz: configuration.maximumBandwidthMHz,
            counterProposes: configuration.counterProposes
        )
        switch decision {
        case .accept(let agreed):
            let ndc = configuration.ndc(for: agreed)
            let response = responseMPDU(.accepted, committed: agreed, ndc: ndc)
            state = .finished(response: response)
            return [.transmit(response), .notify(.agreed(agreed, ndc: ndc))]
        case .counterPropose(let offered):
            let ndc = configuration.ndc(for: offered)
            let response = responseMPDU(.continued, committed: offered, ndc: ndc)
            state = .awaitingConfirm(response: response, offered: offered, ndc: ndc, transmissions: 1)
            return [
                .transmit(response), .arm(.awaitingScheduleConfirm, at: now + configuration.retransmission.interval),
            ]
        case .reject:
            return reject(.invalidAvailability)
        }
    }

    private func responseMPDU(
        _ status: DataPathStatus,
        committed: NDPSchedule,
        ndc: NDCSchedule?,
        reason: NANReasonCode = .reserved
    ) -> [UInt8] {
        // No NDL QoS: never the requester's echoed back (a requester holds later changes to what
        // the answer carries; see NDPResponderConfiguration.qos), and the accessory has none.
        configuration.mpdu(
            .scheduleResponse,
            committed: committed,
            ndc: ndc,
            ndl: (dialogToken, .response, status, reason),
            qos: nil
        )
    }

    /// Schedule Response with NDL Rejected and `reason`; its committed availability is the
    /// schedule the NDL keeps.
    private mutating func reject(_ reason: NANReasonCode) -> [NDLScheduleAction] {
        let response = responseMPDU(
            .rejected,
            committed: configuration.current ?? configuration.availability,
            ndc: nil,
            reason: reason
        )
        state = .finished(response: response)
        return [.transmit(response), .notify(.failed(NDPFailure(.scheduleUnacceptable, reason: reason)))]
    }

    public mutating func handle(_ event: NDLScheduleEvent, now: Instant) -> [NDLScheduleAction] {
        switch (event, state) {
        case (.timerFired(let timer), .awaitingConfirm(let response, let offered, let ndc, let transmissions)):
            guard timer == .awaitingScheduleConfirm else { return [] }
            guard transmissions < configuration.retransmission.maxTransmissions else {
                state = .finished(response: response)
                return [.notify(.failed(NDPFailure(.timeout(timer))))]
            }
            state = .awaitingConfirm(response: response, offered: offered, ndc: ndc, transmissions: transmissions + 1)
            return [.transmit(response), .arm(timer, at: now + configuration.retransmission.interval)]
        case (.received(let frame, let transmitter), _):
            guard transmitter == configuration.peerNMI else { return [] }
            return received(frame)
        default:
            return []
        }
    }

    private mutating func received(_ frame: NANActionFrame) -> [NDLScheduleAction] {
        switch (state, frame.subtype) {
        case (.awaitingConfirm(let response, _, _, _), .scheduleRequest),
            (.finished(let response), .scheduleRequest):
            // The requester did not hear our response: the same request again gets it again.
            return frame.wireBytes == requestBody && !response.isEmpty ? [.transmit(response)] : []
        case (.awaitingConfirm(let response, let offered, let ndc, _), .scheduleConfirm):
            guard let message = NDLScheduleMessage(frame), let ndl = message.ndl, ndl.type == .confirm,
                ndl.dialogToken == dialogToken
            else { return [] }
            state = .finished(response: response)
            let cancel = NDLScheduleAction.cancel(.awaitingScheduleConfirm)
            guard ndl.status == .accepted else {
                let reason = ndl.reasonCode
                return [cancel, .notify(.failed(NDPFailure(.rejectedByPeer(reason), reason: reason)))]
            }
            return [cancel, .notify(.agreed(offered, ndc: ndc))]
        default:
            return []
        }
    }
}

extension NDLScheduleResponder: ProtocolMachine {
    /// The responder draws no randomness.
    public mutating func handle(
        _ event: NDLScheduleEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [NDLScheduleAction] {
        handle(event, now: now)
    }

    public static func timerEvent(_ timer: NDPTimer) -> NDLScheduleEvent { .timerFired(timer) }
}

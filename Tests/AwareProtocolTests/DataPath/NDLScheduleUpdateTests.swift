import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// Renegotiating an established NDL's schedule (NAF subtypes 10-12) and announcing one (13).
@Suite struct NDLScheduleUpdateTests {
    static let everySlot = NDPSchedule(channel: .channel149, slots: Array(0..<32))

    static func configuration(
        phone: Bool,
        availability: NDPSchedule = everySlot,
        minimumSlots: Int = 1,
        counterProposes: Bool = true,
        category: NANActionCategory = .protectedDualOfPublicAction,
        current: NDPSchedule? = nil
    ) -> NDLScheduleConfiguration {
        NDLScheduleConfiguration(
            localNMI: phone ? NDPTest.phoneNMI : NDPTest.accessoryNMI,
            peerNMI: phone ? NDPTest.accessoryNMI : NDPTest.phoneNMI,
            clusterID: NDPTest.clusterID,
            category: category,
            availability: availability,
            current: current,
            minimumSlots: minimumSlots,
            counterProposes: counterProposes,
            ndc: NDCSchedule(
                id: MACAddress(0x02, 0x11, 0x22, 0x33, 0x44, 0x55),
                schedule: NDPSchedule(channel: .channel149, slots: [9])
            )
        )
    }

    /// Both sides after an exchange over a lossless wire.
    struct Exchange {
        var requester: NDLScheduleRequester
        var responder: NDLScheduleResponder?
        var requesterActions: [NDLScheduleAction] = []
        var responderActions: [NDLScheduleAction] = []
        /// Every MPDU on the air, in order.
        var mpdus: [[UInt8]] = []

        var frames: [NANActionFrame] { mpdus.compactMap { NDPTest.naf($0)?.frame } }
        var requesterAgreed: NDPSchedule? { Self.agreed(requesterActions) }
        var responderAgreed: NDPSchedule? { Self.agreed(responderActions) }
        var requesterFailure: NDPFailure? { Self.failure(requesterActions) }
        var responderFailure: NDPFailure? { Self.failure(responderActions) }

        static func agreed(_ actions: [NDLScheduleAction]) -> NDPSchedule? {
            actions.lazy.compactMap { if case .notify(.agreed(let schedule, _)) = $0 { schedule } else { nil } }.first
        }

        static func failure(_ actions: [NDLScheduleAction]) -> NDPFailure? {
            actions.lazy.compactMap { if case .notify(.failed(let failure)) = $0 { failure } else { nil } }.first
        }
    }

    static func transmitted(_ actions: [NDLScheduleAction]) -> [[UInt8]] {
        actions.compactMap { if case .transmit(let bytes) = $0 { bytes } else { nil } }
    }

    static func exchange(
        requester: NDLScheduleConfiguration,
        proposal: NDPSchedule,
        responder: NDLScheduleConfiguration,
        dialogToken: UInt8 = 7,
        previousDialogToken: UInt8? = 1
    ) -> Exchange {
        var exchange = Exchange(
            requester: NDLScheduleRequester(configuration: requester, proposal: proposal, dialogToken: dialogToken)
        )
        var actions = exchange.requester.start(now: .zero)
        exchange.requesterActions += actions
        var toResponder = transmitted(actions)
        while !toResponder.isEmpty {
            var toRequester: [[UInt8]] = []
            for mpdu in toResponder {
                exchange.mpdus.append(mpdu)
                guard let (frame, transmitter) = NDPTest.naf(mpdu) else { continue }
                if var machine = exchange.responder {
                    actions = machine.handle(.received(frame, transmitter: transmitter), now: .zero)
                    exchange.responder = machine
                } else if let machine = NDLScheduleResponder(
                    configuration: responder,
                    request: frame,
                    transmitter: transmitter,
                    previousDialogToken: previousDialogToken,
                    now: .zero
                ) {
                    exchange.responder = machine
                    actions = machine.initialActions
                } else {
                    actions = []
                }
                exchange.responderActions += actions
                toRequester += transmitted(actions)
            }
            toResponder = []
            for mpdu in toRequester {
                exchange.mpdus.append(mpdu)
                guard let (frame, transmitter) = NDPTest.naf(mpdu) else { continue }
                actions = exchange.requester.handle(.received(frame, transmitter: transmitter), now: .zero)
                exchange.requesterActions += actions
                toResponder += transmitted(actions)
            }
        }
        return exchange
    }

    /// The NDL attribute's octets in a NAF body: ID 0x14, length, dialog token, Type (b0-3) and
    /// Status (b4-7), reason code.
    static func ndlOctets(_ mpdu: [UInt8]) -> (token: UInt8, typeAndStatus: UInt8, reason: UInt8)? {
        guard let frame = NDPTest.naf(mpdu)?.frame else { return nil }
        let body = frame.wireBytes
        var index = 7  // Category, Action 0x09, OUI 50-6F-9A, OUI Type 0x18, OUI Subtype
        while index + 3 <= body.count {
            let length = Int(body[index + 1]) | Int(body[index + 2]) << 8
            if body[index] == 0x14 { return (body[index + 3], body[index + 4], body[index + 5]) }
            index += 3 + length
        }
        return nil
    }

    /// The OUI Subtype octet of an MPDU: after the 24-octet header, Category, Action, OUI, OUI Type.
    static func subtypeOctet(_ mpdu: [UInt8]) -> UInt8 { mpdu[24 + 6] }

    /// The proposal fits: Schedule Request (0x0a, NDL Request/Continued 0x00, token 7) then
    /// Schedule Response Accepted (0x0b, NDL 0x11, token 7); both take the intersection at once.
    @Test func accepted() throws {
        let proposal = NDPSchedule(channel: .channel149, slots: Array(8..<16))
        let exchange = Self.exchange(
            requester: Self.configuration(phone: true),
            proposal: proposal,
            responder: Self.configuration(phone: false)
        )
        #expect(exchange.mpdus.map(Self.subtypeOctet) == [0x0A, 0x0B])
        let request = try #require(Self.ndlOctets(exchange.mpdus[0]))
        #expect(request.token == 7 && request.typeAndStatus == 0x00)
        let response = try #require(Self.ndlOctets(exchange.mpdus[1]))
        #expect(response.token == 7 && response.typeAndStatus == 0x11)
        #expect(exchange.requesterAgreed == proposal && exchange.responderAgreed == proposal)
        // A1 / A2 / A3 and the category of the NDL's data path NAFs.
        #expect(Array(exchange.mpdus[0][4..<10]) == NDPTest.accessoryNMI.octets)
        #expect(Array(exchange.mpdus[0][10..<16]) == NDPTest.phoneNMI.octets)
        #expect(Array(exchange.mpdus[0][16..<22]) == NDPTest.clusterID.octets)
        #expect(exchange.mpdus.allSatisfy { $0[24] == 9 })
        // The request's committed entry is the proposal: 16 TU bits, 512 TU, octets FF 00 at slots 8-15.
        let message = try #require(NDLScheduleMessage(exchange.frames[0]))
        let committed = try #require(message.availabilities.first?.entries.first { $0.isCommitted })
        #expect(committed.timeBitmap?.bitmap == [0x00, 0xFF, 0x00, 0x00])
        #expect(message.schedule(on: .channel149) == proposal)
        // The response's committed availability is inside the proposal; its NDC (slot 9) is kept.
        let answer = try #require(NDLScheduleMessage(exchange.frames[1]))
        #expect(answer.schedule(on: .channel149).map { proposal.contains($0) } == true)
        #expect(answer.ndc(on: .channel149)?.schedule.slots == [9])
    }

    /// The proposal misses the responder's availability: Response Continued (NDL 0x01) with its
    /// own schedule, Confirm Accepted (0x0c, NDL 0x12); both take the counter-proposal.
    @Test func counterProposalAccepted() throws {
        let offered = NDPSchedule(channel: .channel149, slots: [20, 21, 22, 23, 24])
        let exchange = Self.exchange(
            requester: Self.configuration(phone: true),
            proposal: NDPSchedule(channel: .channel149, slots: [1, 2, 3]),
            responder: Self.configuration(phone: false, availability: offered, minimumSlots: 3)
        )
        #expect(exchange.mpdus.map(Self.subtypeOctet) == [0x0A, 0x0B, 0x0C])
        #expect(Self.ndlOctets(exchange.mpdus[1])?.typeAndStatus == 0x01)
        let confirm = try #require(Self.ndlOctets(exchange.mpdus[2]))
        #expect(confirm.token == 7 && confirm.typeAndStatus == 0x12)
        #expect(exchange.requesterAgreed == offered && exchange.responderAgreed == offered)
        #expect(exchange.responder?.isFinished == true && exchange.requester.isFinished)
    }

    /// The counter-proposal lies outside what the requester can do: Confirm Rejected (NDL 0x22,
    /// NDL_UNACCEPTABLE); both keep the old schedule.
    @Test func counterProposalRefused() throws {
        let exchange = Self.exchange(
            requester: Self.configuration(
                phone: true,
                availability: NDPSchedule(channel: .channel149, slots: Array(0..<16))
            ),
            proposal: NDPSchedule(channel: .channel149, slots: [1, 2, 3]),
            responder: Self.configuration(
                phone: false,
                availability: NDPSchedule(channel: .channel149, slots: [20, 21, 22, 23, 24]),
                minimumSlots: 3
            )
        )
        let confirm = try #require(Self.ndlOctets(exchange.mpdus[2]))
        #expect(confirm.typeAndStatus == 0x22 && confirm.reason == NANReasonCode.ndlUnacceptable.rawValue)
        #expect(exchange.requesterFailure == NDPFailure(.scheduleUnacceptable, reason: .ndlUnacceptable))
        #expect(exchange.responderFailure == NDPFailure(.rejectedByPeer(.ndlUnacceptable), reason: .ndlUnacceptable))
        #expect(exchange.requesterAgreed == nil && exchange.responderAgreed == nil)
    }

    /// An accepted schedule inside our own proposal is kept even where our availability does not
    /// reach: we proposed it (the responder already runs on it, no Confirm follows).
    @Test func acceptedInsideOurProposal() {
        let proposal = NDPSchedule(channel: .channel149, slots: [17, 18, 25, 26])
        let exchange = Self.exchange(
            requester: Self.configuration(phone: true, availability: NDPSchedule(channel: .channel149, slots: [0, 1])),
            proposal: proposal,
            responder: Self.configuration(phone: false)
        )
        #expect(exchange.mpdus.map(Self.subtypeOctet) == [0x0A, 0x0B])
        #expect(exchange.requesterAgreed == proposal && exchange.responderAgreed == proposal)
    }

    /// A responder that does not counter-propose rejects (NDL 0x21, INVALID_AVAILABILITY).
    @Test func rejected() throws {
        let exchange = Self.exchange(
            requester: Self.configuration(phone: true),
            proposal: NDPSchedule(channel: .channel149, slots: [1, 2, 3]),
            responder: Self.configuration(
                phone: false,
                availability: NDPSchedule(channel: .channel149, slots: [20, 21]),
                counterProposes: false,
                current: NDPSchedule(channel: .channel149, slots: [0, 1, 2, 3])
            )
        )
        #expect(exchange.mpdus.map(Self.subtypeOctet) == [0x0A, 0x0B])
        let response = try #require(Self.ndlOctets(exchange.mpdus[1]))
        #expect(response.typeAndStatus == 0x21 && response.reason == NANReasonCode.invalidAvailability.rawValue)
        #expect(
            exchange.requesterFailure
                == NDPFailure(.rejectedByPeer(.invalidAvailability), reason: .invalidAvailability)
        )
        #expect(exchange.responderFailure?.kind == .scheduleUnacceptable)
        // The rejection names the schedule the NDL keeps as committed.
        let message = try #require(NDLScheduleMessage(exchange.frames[1]))
        #expect(message.schedule(on: .channel149)?.slots == [0, 1, 2, 3])
    }

    /// The previous exchange's dialog token again, or an NDL that is not Request / Continued, is
    /// no Schedule Request (MediaTek ignores it).
    @Test func requestNeedsANewTokenAndRequestContinued() throws {
        let requester = NDLScheduleRequester(
            configuration: Self.configuration(phone: true),
            proposal: Self.everySlot,
            dialogToken: 3
        )
        var machine = requester
        let mpdu = try #require(Self.transmitted(machine.start(now: .zero)).first)
        let (frame, transmitter) = try #require(NDPTest.naf(mpdu))
        let responder = Self.configuration(phone: false)
        func accepts(_ frame: NANActionFrame, previous: UInt8?) -> Bool {
            NDLScheduleResponder(
                configuration: responder,
                request: frame,
                transmitter: transmitter,
                previousDialogToken: previous,
                now: .zero
            ) != nil
        }
        #expect(accepts(frame, previous: 2))
        #expect(!accepts(frame, previous: 3))
        var accepted = frame
        accepted.attributes = frame.attributes.map { attribute in
            guard case .ndl(var ndl) = attribute else { return attribute }
            ndl.status = .accepted
            return .ndl(ndl)
        }
        #expect(!accepts(accepted, previous: nil))
        #expect(
            NDLScheduleResponder(
                configuration: responder,
                request: frame,
                transmitter: NDPTest.strangerNMI,
                previousDialogToken: nil,
                now: .zero
            ) == nil
        )
    }

    /// No answer: the request goes three times, a second apart, then the requester fails.
    @Test func requestTimesOut() {
        var machine = NDLScheduleRequester(
            configuration: Self.configuration(phone: true),
            proposal: Self.everySlot,
            dialogToken: 2
        )
        let first = machine.start(now: .zero)
        #expect(first.last == .arm(.awaitingScheduleResponse, at: Instant.zero + .seconds(1)))
        let second = machine.handle(.timerFired(.awaitingScheduleResponse), now: Instant.zero + .seconds(1))
        let third = machine.handle(.timerFired(.awaitingScheduleResponse), now: Instant.zero + .seconds(2))
        #expect(
            Self.transmitted(second) == Self.transmitted(first) && Self.transmitted(third) == Self.transmitted(first)
        )
        let last = machine.handle(.timerFired(.awaitingScheduleResponse), now: Instant.zero + .seconds(3))
        #expect(last == [.notify(.failed(NDPFailure(.timeout(.awaitingScheduleResponse))))])
        #expect(machine.isFinished)
    }

    /// The same request again (our response was lost) gets the same response; a response with
    /// another dialog token is not ours.
    @Test func repeatedRequestAndForeignToken() throws {
        var requester = NDLScheduleRequester(
            configuration: Self.configuration(phone: true),
            proposal: NDPSchedule(channel: .channel149, slots: [4, 5]),
            dialogToken: 5
        )
        let request = try #require(Self.transmitted(requester.start(now: .zero)).first)
        let (frame, transmitter) = try #require(NDPTest.naf(request))
        var responder = try #require(
            NDLScheduleResponder(
                configuration: Self.configuration(phone: false),
                request: frame,
                transmitter: transmitter,
                previousDialogToken: nil,
                now: .zero
            )
        )
        let response = Self.transmitted(responder.initialActions)
        #expect(
            responder.handle(.received(frame, transmitter: transmitter), now: .zero) == response.map { .transmit($0) }
        )
        let (answer, sender) = try #require(NDPTest.naf(response[0]))
        var foreign = answer
        foreign.attributes = answer.attributes.map { attribute in
            guard case .ndl(var ndl) = attribute else { return attribute }
            ndl.dialogToken = 6
            return .ndl(ndl)
        }
        #expect(requester.handle(.received(foreign, transmitter: sender), now: .zero).isEmpty)
        let actions = requester.handle(.received(answer, transmitter: sender), now: .zero)
        #expect(NDLScheduleUpdateTests.Exchange.agreed(actions)?.slots == [4, 5])
    }

    /// The Update Notification (0x0d): the sender's new committed schedule and NDC, no NDL.
    @Test func updateNotification() throws {
        let configuration = Self.configuration(phone: false, category: .publicAction)
        let committed = NDPSchedule(channel: .channel149, slots: Array(16..<24))
        let mpdu = configuration.updateNotification(committed: committed)
        #expect(Self.subtypeOctet(mpdu) == 0x0D && mpdu[24] == 4)
        #expect(Self.ndlOctets(mpdu) == nil)
        let naf = try #require(NDPTest.naf(mpdu))
        let message = try #require(NDLScheduleMessage(naf.frame))
        #expect(message.schedule(on: .channel149) == committed)
        #expect(message.ndc(on: .channel149)?.schedule.slots == [16])
        #expect(message.ndc(on: .channel149)?.id == configuration.ndc?.id)
    }
}

import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// The Selected NDC and the NDP-or-NDPE choice (nan-wire-reference.md 2.6, 2.8, 2.9), with the
/// octets worked out by hand from the field tables, and hostap's rules as the expectation: an
/// accepting NDL Response names a Selected NDC inside the responder's committed slots and sets
/// NDL Control b2; a proposed NDC keeps its ID; NDPE only to a peer whose capability sets b3.
@Suite struct NDCSelectionTests {
    private static let ndcID = MACAddress(0x02, 0x11, 0x22, 0x33, 0x44, 0x55)

    private func attributes<T>(_ frame: NANActionFrame, _ pick: (NANAttribute) -> T?) -> [T] {
        frame.attributes.compactMap(pick)
    }

    private func ndcs(_ frame: NANActionFrame) -> [NDCAttribute] {
        attributes(frame) { if case .ndc(let value) = $0 { value } else { nil } }
    }

    private func ndl(_ frame: NANActionFrame) -> NDLAttribute? {
        attributes(frame) { if case .ndl(let value) = $0 { value } else { nil } }.first
    }

    /// Bulk on channel 149 holds slot 9, the first after the 5 GHz DW: the NDC is slot 9.
    /// 13 | 0F 00 | 02 11 22 33 44 55 | 01 | 00 | 18 00 | 04 | 00 02 00 00.
    @Test func selectsTheSlotAfterTheFiveGigahertzWindow() throws {
        let ndc = try #require(NDCSchedule(selectingFrom: NDPSchedule(mode: .bulk), id: Self.ndcID))
        #expect(ndc.schedule.slots == [9])
        #expect(
            ndc.attribute().attributeBytes
                == [
                    0x13, 0x0F, 0x00, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x01, 0x00, 0x18, 0x00, 0x04, 0x00, 0x02,
                    0x00, 0x00,
                ]
        )
    }

    /// Channel 6: slot 1 (after the 2.4 GHz DW); a schedule with neither takes its first slot.
    @Test func otherwiseTheFirstSlot() throws {
        let six = try #require(
            NDCSchedule(selectingFrom: NDPSchedule(mode: .realtime, channel: .channel6), id: Self.ndcID)
        )
        #expect(six.schedule.slots == [1])
        let shifted = try #require(NDCSchedule(selectingFrom: NDPSchedule(slots: [4, 5, 12]), id: Self.ndcID))
        #expect(shifted.schedule.slots == [4])
        #expect(NDCSchedule(selectingFrom: NDPSchedule(slots: []), id: Self.ndcID) == nil)
    }

    /// hostap's NDC attribute of session A frame 23, typed from the capture: NDC ID
    /// 21:c0:04:89:9e:a7, Selected, one entry (Map 0, control 0x0018, length 1, bitmap fe).
    @Test func readsHostapsNDC() throws {
        let bytes: [UInt8] = [0x13, 0x0C, 0x00, 0x21, 0xC0, 0x04, 0x89, 0x9E, 0xA7, 0x01, 0x00, 0x18, 0x00, 0x01, 0xFE]
        let attribute = try NDCAttribute(attributeBytes: bytes)
        #expect(attribute.isSelected)
        let ndc = try #require(NDCSchedule(attribute, channel: .channel6))
        #expect(ndc.schedule.slots == [1, 2, 3, 4, 5, 6, 7])
        #expect(
            NDCSchedule(NDCAttribute(ndcID: Self.ndcID, selected: true, scheduleEntries: []), channel: .channel6) == nil
        )
    }

    /// Six random octets become an individual, locally administered ID: 21 -> 22.
    @Test func identifiersAreIndividualAndLocal() {
        #expect(NDCSchedule.identifier(random: [0x21, 1, 2, 3, 4, 5]) == MACAddress(0x22, 1, 2, 3, 4, 5))
        #expect(NDCSchedule.identifier(random: [0xFF, 1, 2, 3, 4, 5]) == MACAddress(0xFE, 1, 2, 3, 4, 5))
    }

    /// The bench's Device Capability: 0F | 09 00 | Map 00 | CDW 09 00 | bands 14 | op 00 |
    /// antennas 11 | switch 00 00 | capabilities 08 (NDPE).
    @Test func benchDeviceCapabilityOctets() {
        #expect(
            DeviceCapabilityAttribute.bench().attributeBytes
                == [0x0F, 0x09, 0x00, 0x00, 0x09, 0x00, 0x14, 0x00, 0x11, 0x00, 0x00, 0x08]
        )
        #expect(DeviceCapabilityAttribute.bench(ndpeSupported: false).capabilities == 0)
    }

    /// An accepting response names the Selected NDC with NDL Control b2; both links keep it.
    @Test func anAcceptingResponseSelectsAnNDC() throws {
        var responder = NDPTest.responder(availability: NDPSchedule(mode: .bulk))
        responder.ndcID = Self.ndcID
        let exchange = NDPTest.exchange(NDPTest.initiator(proposal: NDPSchedule(mode: .realtime)), responder)
        let response = exchange.frames[1].frame
        #expect(ndcs(response).map(\.ndcID) == [Self.ndcID])
        #expect(ndcs(response).first?.isSelected == true)
        #expect(ndl(response)?.ndcAttributePresent == true)
        #expect(exchange.responderLink?.ndc?.schedule.slots == [9])
        #expect(exchange.initiatorLink?.ndc?.id == Self.ndcID)
        // The request proposed none (hostap's initiator never does) and the Confirm of an
        // accepted NDL repeats none.
        #expect(ndcs(exchange.frames[0].frame).isEmpty && ndl(exchange.frames[0].frame)?.ndcAttributePresent == false)
        #expect(ndcs(exchange.frames[2].frame).isEmpty)
    }

    /// A proposed NDC inside the agreed schedule is kept whole, ID and slots.
    @Test func aProposedNDCIsKept() throws {
        var initiator = NDPTest.initiator(proposal: NDPSchedule(mode: .bulk))
        let proposed = NDCSchedule(id: Self.ndcID, schedule: NDPSchedule(slots: [10]))
        initiator.proposedNDC = proposed
        let exchange = NDPTest.exchange(initiator, NDPTest.responder(availability: NDPSchedule(mode: .bulk)))
        let request = exchange.frames[0].frame
        #expect(ndcs(request) == [proposed.attribute()])
        #expect(ndl(request)?.ndcAttributePresent == true)
        #expect(exchange.responderLink?.ndc == proposed)
        #expect(ndl(exchange.frames[1].frame)?.status == .accepted)
    }

    /// A proposed NDC outside the agreed schedule: the ID stays, the slot is ours, and the NDL
    /// becomes a counter-proposal; the Confirm accepts it and repeats the NDC.
    @Test func aProposedNDCThatDoesNotFitIsCountered() throws {
        var initiator = NDPTest.initiator(proposal: NDPSchedule(mode: .bulk))
        initiator.proposedNDC = NDCSchedule(id: Self.ndcID, schedule: NDPSchedule(slots: [20]))
        let exchange = NDPTest.exchange(initiator, NDPTest.responder(availability: NDPSchedule(mode: .bulk)))
        let response = exchange.frames[1].frame
        #expect(ndl(response)?.status == .continued)
        #expect(ndcs(response).map(\.ndcID) == [Self.ndcID])
        #expect(exchange.responderLink?.ndc?.schedule.slots == [9])
        let confirm = exchange.frames[2].frame
        #expect(ndl(confirm)?.type == .confirm && ndl(confirm)?.status == .accepted)
        #expect(ndl(confirm)?.ndcAttributePresent == true)
        #expect(ndcs(confirm).map(\.ndcID) == [Self.ndcID])
        #expect(exchange.initiatorLink?.ndc?.schedule.slots == [9])
    }

    /// The fault switch: no NDC, no b2; the phone still takes the path (the suite judges it).
    @Test func theFaultSwitchSelectsNone() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(),
            NDPTest.responder(policy: NDPResponderPolicy(selectsNDC: false))
        )
        #expect(ndcs(exchange.frames[1].frame).isEmpty)
        #expect(ndl(exchange.frames[1].frame)?.ndcAttributePresent == false)
        #expect(exchange.initiatorLink != nil && exchange.initiatorLink?.ndc == nil)
    }

    /// A Selected NDC outside the responder's own committed slots is refused, as hostap refuses
    /// a peer NDC its availability does not cover: Confirm Rejected, NDL_UNACCEPTABLE.
    @Test func anNDCOutsideTheCommittedSlotsIsRefused() throws {
        // An open exchange, so that moving the NDC leaves no MIC to break: the schedule check alone.
        var initiator = NDPInitiator(configuration: NDPTest.initiator(security: .open), nonce: NDPTest.iNonce)
        let request = try #require(NDPTest.transmitted(initiator.start(now: .zero)).first.flatMap(NDPTest.naf))
        var configuration = NDPTest.responder(availability: NDPSchedule(mode: .bulk))
        configuration.policy.requiresSecurity = false
        let responder = try #require(
            NDPResponder(
                configuration: configuration,
                request: request.frame,
                transmitter: NDPTest.phoneNMI,
                nonce: NDPTest.rNonce,
                now: .zero
            )
        )
        var response = try #require(NDPTest.transmitted(responder.initialActions).first.flatMap(NDPTest.naf)?.frame)
        // Slot 20 is not in the bulk schedule the response commits to.
        response.attributes = response.attributes.map { attribute in
            guard case .ndc = attribute else { return attribute }
            return .ndc(NDCSchedule(id: Self.ndcID, schedule: NDPSchedule(slots: [20])).attribute())
        }
        let refused = initiator.handle(.received(response, transmitter: NDPTest.accessoryNMI), now: .zero)
        #expect(NDPTest.failure(refused)?.reason == .ndlUnacceptable)
        let confirm = try #require(NDPTest.transmitted(refused).first.flatMap(NDPTest.naf)?.frame)
        #expect(NDPMessage(confirm)?.common.status == .rejected)
        #expect(NDPTest.established(refused) == nil)
    }

    /// NDP or NDPE by the requester's Device Capability in the request: NDPE bit clear -> NDP
    /// (0x10) answers even to an NDPE request; set -> NDPE; none -> the request's own form.
    @Test func answersInTheAttributeTheRequesterReads() throws {
        func answer(
            requestNDPE: Bool,
            capability: DeviceCapabilityAttribute?,
            policy: NDPResponderPolicy = .init()
        )
            throws -> [UInt8]
        {
            var initiator = NDPTest.initiator(usesNDPE: requestNDPE)
            initiator.leadingAttributes = capability.map { [.deviceCapability($0)] } ?? []
            let exchange = NDPTest.exchange(initiator, NDPTest.responder(policy: policy))
            return exchange.frames.filter { !$0.fromInitiator }.flatMap { entry in
                entry.frame.attributes.compactMap { attribute -> UInt8? in
                    switch attribute {
                    case .ndp: 0x10
                    case .ndpExtension: 0x29
                    default: nil
                    }
                }
            }
        }
        #expect(try answer(requestNDPE: true, capability: .bench(ndpeSupported: false)) == [0x10, 0x10])
        #expect(try answer(requestNDPE: false, capability: .bench(ndpeSupported: true)) == [0x29, 0x29])
        #expect(try answer(requestNDPE: false, capability: nil) == [0x10, 0x10])
        #expect(try answer(requestNDPE: true, capability: nil) == [0x29, 0x29])
        let fault = NDPResponderPolicy(followsPeerNDPESupport: false)
        #expect(
            try answer(requestNDPE: false, capability: .bench(ndpeSupported: false), policy: fault) == [0x29, 0x29]
        )
    }
}

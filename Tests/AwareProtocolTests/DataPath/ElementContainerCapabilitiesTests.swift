import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

/// The Element Container hostap needs in a Data Path Request and Response (its HT Capabilities
/// configure the peer's station; wpas_nan_configure_nmi_sta_capa). Octets by hand from IEEE
/// 802.11-2020 9.4.2.55 (HT) and 9.4.2.157 (VHT) and nan-wire-reference.md 2.12.
@Suite struct ElementContainerCapabilitiesTests {
    /// 1D | length 43 (Map ID 1 + HT 2 + 26 + VHT 2 + 12) | Map ID 00 | 2D 1A: Capability Info 6E 00,
    /// A-MPDU 03, MCS set FF + 9 x 00 + 00 00 + 01 00 00 00, HT Extended 00 00, TxBF 00 00 00 00, ASEL
    /// 00 | BF 0C: 20 00 00 00, FE FF 00 00, FE FF 00 00.
    @Test func theBenchCapabilitiesOnTheAir() {
        let expected = hex(
            "1d 2b00 00"
                + " 2d 1a 6e00 03 ff000000000000000000 0000 01000000 0000 00000000 00"
                + " bf 0c 20000000 feff0000 feff0000"
        )
        #expect(ElementContainerAttribute.benchCapabilities.attributeBytes == expected)
        #expect(ElementContainerAttribute.benchCapabilities.htCapabilitiesBody?.count == 26)
    }

    /// In the Request and an accepting Response when configured, after the NDL QoS; never in a
    /// rejection.
    @Test func sentInRequestAndAcceptingResponse() throws {
        var initiator = NDPTest.initiator()
        initiator.elementContainer = .benchCapabilities
        var responder = NDPTest.responder()
        responder.elementContainer = .benchCapabilities
        let exchange = NDPTest.exchange(initiator, responder)
        for index in 0..<2 {
            let frame = exchange.frames[index].frame
            guard case .elementContainer(let container)? = frame.attributes.last else {
                Issue.record("frame \(index + 1) does not end with an Element Container")
                continue
            }
            #expect(container == .benchCapabilities)
        }
        var refusing = NDPTest.responder(availability: NDPSchedule(slots: [9]), minimumSlots: 4)
        refusing.elementContainer = .benchCapabilities
        refusing.policy.counterProposes = false
        let rejected = NDPTest.exchange(initiator, refusing)
        let response = try #require(NDPMessage(rejected.frames[1].frame))
        #expect(response.common.status == .rejected)
        #expect(
            !rejected.frames[1].frame.attributes.contains { if case .elementContainer = $0 { true } else { false } }
        )
    }
}

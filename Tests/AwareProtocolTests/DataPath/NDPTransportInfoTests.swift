import AwareCore
import AwareTestSupport
import AwareWire
import Testing

@testable import AwareProtocol

/// The service's transport in the Data Path Response: the responder names the published
/// service's port and protocol (Generic Service Protocol in the NDPE Service Info TLV, or in the
/// NDP Specific Info of an NDP attribute, Android's placement), and the initiator's link keeps
/// what it read (Android `WifiAwareNetworkInfo.getPort` / `getTransportProtocol`).
@Suite struct NDPTransportInfoTests {
    /// Port 7000 (58 1b, little-endian), UDP (0x11), written by hand: TLV type 1, length 13.
    static let tlv = HexString.decode("01 0d 00 50 6f 9a 02 00 02 00 58 1b 01 01 00 11")!
    static let port7000UDP = GenericServiceProtocol(transportPort: 7_000, transportProtocol: 17)

    private func responder(
        availability: NDPSchedule = NDPTest.allSlots,
        minimumSlots: Int = 1
    ) -> NDPResponderConfiguration {
        var configuration = NDPTest.responder(availability: availability, minimumSlots: minimumSlots)
        configuration.transportInfo = [1: Self.port7000UDP]
        return configuration
    }

    /// The accessory's NAFs of an exchange, with their NDP or NDPE attribute's octets.
    private func answers(_ exchange: NDPTest.Exchange) -> [(subtype: NAFSubtype, attribute: [UInt8])] {
        exchange.frames.filter { !$0.fromInitiator }.compactMap { entry in
            for attribute in entry.frame.attributes {
                switch attribute {
                case .ndp(let ndp): return (entry.frame.subtype, ndp.attributeBytes)
                case .ndpExtension(let ndpe): return (entry.frame.subtype, ndpe.attributeBytes)
                default: continue
                }
            }
            return nil
        }
    }

    /// NDPE: the Response's attribute ends with the IPv6 TLV and then the Service Info TLV; the
    /// Key Installment carries neither. The m2 MIC covers it, and the initiator's link has it.
    @Test func theNDPEResponseNamesThePortAndProtocol() throws {
        let exchange = NDPTest.exchange(NDPTest.initiator(), responder())
        let link = try #require(exchange.initiatorLink)
        #expect(link.peerServiceInfo == Self.port7000UDP)
        #expect(link.peerServiceInfo?.transportPort == 7_000)
        #expect(link.peerServiceInfo?.transportProtocol == 17)
        let answers = answers(exchange)
        #expect(answers.map(\.subtype) == [.dataPathResponse, .dataPathKeyInstallment])
        let response = try #require(answers.first?.attribute)
        #expect(response.first == 0x29)
        #expect(Array(response.suffix(Self.tlv.count)) == Self.tlv)
        let ipv6 = [0x00, 0x08, 0x00] + NDPTest.accessoryInterfaceID
        #expect(Array(response.suffix(Self.tlv.count + ipv6.count).prefix(ipv6.count)) == ipv6)
        #expect(!answers[1].attribute.contains(subsequence: Self.tlv))
    }

    /// NDP (the phone's Device Capability clears the NDPE bit): the same TLV is the NDP
    /// Specific Info of the Response (control b5 set), and the initiator reads it there.
    @Test func theNDPResponseCarriesItAsNDPSpecificInfo() throws {
        var initiator = NDPTest.initiator(usesNDPE: false)
        initiator.leadingAttributes = [.deviceCapability(.bench(ndpeSupported: false))]
        let exchange = NDPTest.exchange(initiator, responder())
        let response = try #require(
            exchange.frames.first { $0.frame.subtype == .dataPathResponse }?.frame.attributes.lazy.compactMap {
                if case .ndp(let ndp) = $0 { ndp } else { nil }
            }.first
        )
        #expect(response.ndpSpecificInfo == Self.tlv)
        #expect(response.ndpControl.contains(.ndpSpecificInfoPresent))
        #expect(exchange.initiatorLink?.peerServiceInfo == Self.port7000UDP)
    }

    /// A counter-proposal (NDL Continued) is not a rejection: it names the transport too.
    @Test func aCounterProposalNamesItToo() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(proposal: NDPSchedule(channel: .channel149, slots: [1, 2, 3, 4])),
            responder(availability: NDPSchedule(channel: .channel149, slots: [20, 21, 22, 23, 24]), minimumSlots: 3)
        )
        let ndl = exchange.frames[1].frame.attributes.lazy.compactMap { if case .ndl(let v) = $0 { v } else { nil } }
        #expect(ndl.first?.status == .continued)
        #expect(Array(try #require(answers(exchange).first?.attribute).suffix(Self.tlv.count)) == Self.tlv)
        #expect(exchange.initiatorLink?.peerServiceInfo == Self.port7000UDP)
    }

    /// A rejection names no transport: there is no service to reach.
    @Test func aRejectionNamesNone() throws {
        let exchange = NDPTest.exchange(NDPTest.initiator(security: .open), responder())
        let response = try #require(answers(exchange).first)
        #expect(response.subtype == .dataPathResponse)
        let ndpe = try NDPExtensionAttribute(attributeBytes: response.attribute)
        #expect(ndpe.status == .rejected)
        #expect(ndpe.genericServiceProtocol == nil)
        #expect(!response.attribute.contains(subsequence: Self.tlv))
    }

    /// A service without an entry (the accessory's `ndp-no-transport-info` fault): no TLV, and
    /// the initiator's link has nothing.
    @Test func withoutAnEntryNothingIsNamed() throws {
        let exchange = NDPTest.exchange(NDPTest.initiator(), NDPTest.responder())
        let link = try #require(exchange.initiatorLink)
        #expect(link.peerServiceInfo == nil)
        let response = try NDPExtensionAttribute(attributeBytes: try #require(answers(exchange).first?.attribute))
        #expect(response.tlvs == [.ipv6LinkLocal(interfaceIdentifier: NDPTest.accessoryInterfaceID)])
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return subsequence.isEmpty }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}

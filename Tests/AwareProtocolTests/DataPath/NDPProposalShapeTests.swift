import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

/// The phone's proposal shapes on the air, octet by octet from nan-wire-reference.md 2.7 and IEEE
/// 802.11 Annex E, with the bulk slots 1, 2, 9, 10, 17, 18, 25, 26 (octets 06 06 06 06).
@Suite struct NDPProposalShapeTests {
    private let base = NDPSchedule(mode: .bulk)

    private func layout(_ shape: NDPProposalShape) -> NDPProposalShape.Layout {
        shape.layout(base: base, style: NDPAvailabilityStyle())
    }

    private func written(_ body: some WireCodable) -> [UInt8] {
        var writer = WireWriter()
        body.write(to: &writer)
        return writer.bytes
    }

    /// Period 1024 (control 4 << 3 = 0x0020), 8 octets: the first 512 TU 06 06 06 06, the second
    /// without slot 58 (26 + 32, bit 2 of octet 7): 06 06 06 02.
    @Test func periodThousandTwentyFour() throws {
        let committed = try #require(layout(.period1024).attributes.first?.entries.first)
        #expect(committed.isCommitted)
        #expect(written(try #require(committed.timeBitmap)) == hex("2000 08 0606060606060602"))
        #expect(layout(.period1024).proposal.periodTU == 1_024)
    }

    /// Period 8192 (0x0038): 64 octets, 63 of them 06, the last 02.
    @Test func periodEightThousand() throws {
        let bitmap = try #require(layout(.period8192).attributes.first?.entries.first?.timeBitmap)
        #expect(bitmap.control.rawValue == 0x0038)
        #expect(bitmap.bitmap == [UInt8](repeating: 0x06, count: 63) + [0x02])
    }

    /// 32 TU bits (0x0019), 2 octets: slots 1, 2 -> bits 0, 1; 9, 10 -> 4, 5; so 0x33 0x33.
    @Test func thirtyTwoTUBits() throws {
        let bitmap = try #require(layout(.wideBits).attributes.first?.entries.first?.timeBitmap)
        #expect(written(bitmap) == hex("1900 02 3333"))
        #expect(layout(.wideBits).proposal.slots == [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27])
    }

    /// Start Offset 8: control 0x0018 | 8 << 6 = 0x0218; bit i = slot 8 + i, so slots 9, 10 are
    /// bits 1, 2 and slots 1, 2 are bits 25, 26: 06 06 06 06 again.
    @Test func startOffset() throws {
        let bitmap = try #require(layout(.startOffset).attributes.first?.entries.first?.timeBitmap)
        #expect(written(bitmap) == hex("1802 04 06060606"))
    }

    /// Map ID 1 on channel 6 (class 81, bitmap bit 5), Map ID 2 on channel 149 (class 124, bit 0).
    @Test func twoMaps() throws {
        let attributes = layout(.twoMaps).attributes
        #expect(attributes.map(\.mapID) == [1, 2])
        let channels = attributes.compactMap { attribute -> ChannelEntry? in
            guard case .channels(let list)? = attribute.entries.first?.bandChannelEntries?.entries else { return nil }
            return list.first
        }
        #expect(
            channels == [
                ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0),
                ChannelEntry(operatingClass: 124, channelBitmap: 0x0001, primaryChannelBitmap: 0),
            ]
        )
    }

    /// Committed on channel 6, the bulk slots as a conditional entry (Type b2 = 0x0004) on 149.
    @Test func conditional() throws {
        let entries = try #require(layout(.conditional).attributes.first?.entries)
        #expect(entries.map { $0.entryControl & 0x0007 } == [0x0001, 0x0004, 0x0002])
        #expect(written(try #require(entries[1].timeBitmap)) == hex("1800 04 06060606"))
    }

    /// Committed on channel 36 (class 115, bit 0); the potential entry names 36 and 149.
    @Test func otherChannel() throws {
        let entries = try #require(layout(.otherChannel).attributes.first?.entries)
        guard case .channels(let committed)? = entries[0].bandChannelEntries?.entries,
            case .channels(let potential)? = entries[1].bandChannelEntries?.entries
        else {
            Issue.record("channel entries expected")
            return
        }
        #expect(committed == [ChannelEntry(operatingClass: 115, channelBitmap: 0x0001, primaryChannelBitmap: 0)])
        #expect(potential.map(\.operatingClass) == [115, 124])
        #expect(layout(.otherChannel).proposedElsewhere)
    }

    /// 80 MHz: class 128, centre 155 (bit 5), primary 149 (bit 0); 160 MHz: class 129, centre 163
    /// (bit 2), primary bit 0.
    @Test func bandwidths() throws {
        func channel(_ shape: NDPProposalShape) -> ChannelEntry? {
            guard case .channels(let list)? = layout(shape).attributes.first?.entries.first?.bandChannelEntries?.entries
            else { return nil }
            return list.first
        }
        #expect(
            channel(.bandwidth80) == ChannelEntry(operatingClass: 128, channelBitmap: 0x0020, primaryChannelBitmap: 1)
        )
        #expect(
            channel(.bandwidth160) == ChannelEntry(operatingClass: 129, channelBitmap: 0x0004, primaryChannelBitmap: 1)
        )
    }

    /// The responder answers a 1024 TU proposal with a 1024 TU committed bitmap holding only what
    /// both hold (slot 58 left out); folded onto 512 TU (the fault) it commits slot 26 in both halves.
    @Test func theResponderKeepsTheProposalsPeriod() throws {
        var initiator = NDPTest.initiator(proposal: layout(.period1024).proposal)
        initiator.proposalAttributes = layout(.period1024).attributes
        let exchange = NDPTest.exchange(initiator, NDPTest.responder(availability: base))
        let response = try #require(NDPMessage(exchange.frames[1].frame))
        let committed = try #require(response.availabilities.first?.entries.first { $0.isCommitted })
        #expect(written(try #require(committed.timeBitmap)) == hex("2000 08 0606060606060602"))

        var policy = NDPResponderPolicy()
        policy.keepsLongPeriods = false
        let folding = NDPTest.exchange(initiator, NDPTest.responder(availability: base, policy: policy))
        let folded = try #require(NDPMessage(folding.frames[1].frame))
        let foldedEntry = try #require(folded.availabilities.first?.entries.first { $0.isCommitted })
        #expect(written(try #require(foldedEntry.timeBitmap)) == hex("1800 04 06060606"))
    }
}

import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

@Suite struct DataPathAvailabilityTests {
    // nan-wire-reference.md 2.7 worked example (hostap `pot_avail`).
    @Test func referenceWorkedExampleDecodesFieldByField() throws {
        let bytes = hex("12 0a 00 01 00 00 05 00 ba 02 20 02 04")
        let attribute = try AvailabilityAttribute(attributeBytes: bytes)
        #expect(attribute.sequenceID == 1)
        #expect(attribute.attributeControl == 0)
        #expect(attribute.mapID == 0)
        #expect(!attribute.committedChanged && !attribute.potentialChanged)
        #expect(!attribute.publicAvailabilityChanged && !attribute.ndcChanged)
        #expect(attribute.entries.count == 1)
        let entry = attribute.entries[0]
        #expect(entry.entryControl == 0x02BA)
        #expect(!entry.isCommitted)
        #expect(entry.isPotential)
        #expect(!entry.isConditional)
        #expect(entry.usagePreference == 3)
        #expect(entry.utilization == 5)
        #expect(entry.rxNSS == 2)
        #expect(!entry.timeBitmapPresent)
        #expect(entry.timeBitmap == nil)
        #expect(entry.bandChannelEntries?.control == 0x20)
        #expect(entry.bandChannelEntries?.entries == .bands([.band2_4GHz, .band5GHz]))
        #expect(attribute.attributeBytes == bytes)
    }

    @Test func referenceWorkedExampleBuiltFromValues() {
        let attribute = AvailabilityAttribute(
            sequenceID: 1,
            mapID: 0,
            entries: [
                AvailabilityEntry(
                    potential: true,
                    usagePreference: 3,
                    utilization: 5,
                    rxNSS: 2,
                    bandChannelEntries: BandChannelEntries(bands: [.band2_4GHz, .band5GHz])
                )
            ]
        )
        #expect(attribute.attributeBytes == hex("12 0a 00 01 00 00 05 00 ba 02 20 02 04"))
    }

    // hostap committed entry (2.7): ctrl = committed | util 5 << 5 | nss 1 << 8 | TBM present
    // = 0x11a1; TBC 0x0018 (16 TU, 512 TU period), 4-octet bitmap; chan ctrl 0x11 (one channel
    // entry): op class 81, channel bitmap 0x0020 (channel 6), primary 0. Entry length 14.
    // Attribute control 0x0010 = map 0, Committed Changed.
    @Test func committedEntryWithTimeBitmapAndChannelGolden() throws {
        let expected = hex("12 13 00 01 10 00 0e 00 a1 11 18 00 04 fe ff fe ff 11 51 20 00 00")
        let attribute = AvailabilityAttribute(
            sequenceID: 1,
            mapID: 0,
            committedChanged: true,
            entries: [
                AvailabilityEntry(
                    committed: true,
                    utilization: 5,
                    rxNSS: 1,
                    timeBitmap: TimeBitmap(
                        control: TimeBitmapControl(bitDuration: .tu16, period: .tu512),
                        bitmap: hex("fe ff fe ff")
                    ),
                    bandChannelEntries: BandChannelEntries(channels: [
                        ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)
                    ])
                )
            ]
        )
        #expect(attribute.attributeBytes == expected)
        let parsed = try AvailabilityAttribute(attributeBytes: expected)
        #expect(parsed == attribute)
        #expect(parsed.entries[0].isCommitted)
        #expect(parsed.entries[0].timeBitmapPresent)
        #expect(parsed.entries[0].bandChannelEntries?.control == 0x11)
    }

    @Test func roundTripKeepsReservedBits() throws {
        // Attribute control 0xff3f (reserved b8-15 set), entry control 0xe0ba (reserved b13-15).
        let bytes = hex("12 0a 00 07 3f ff 05 00 ba e0 20 02 04")
        let attribute = try AvailabilityAttribute(attributeBytes: bytes)
        #expect(attribute.mapID == 0x0F)
        #expect(attribute.committedChanged && attribute.potentialChanged)
        #expect(!attribute.publicAvailabilityChanged)
        #expect(attribute.attributeBytes == bytes)
    }

    @Test func decodedFieldsNameTheBits() throws {
        let attribute = try AvailabilityAttribute(attributeBytes: hex("12 0a 00 01 00 00 05 00 ba 02 20 02 04"))
        let fields = attribute.decodedFields
        #expect(fields.first == DecodedField("sequenceID", "Sequence ID", .unsigned(1)))
        guard case .list(let entries) = fields.last?.value, case .fields(let entryFields) = entries.first else {
            Issue.record("no entries list")
            return
        }
        #expect(entryFields.contains(DecodedField("potential", "Potential", .flag(true))))
        #expect(entryFields.contains(DecodedField("utilization", "Utilization", .named(5, "5"))))
    }

    @Test func entryWithMoreOctetsThanItsEntriesTake() {
        // The band/channel control says one band, two follow inside the entry's length.
        #expect(
            throws: WireError(.trailingOctets(count: 1), structure: "NAN Availability attribute", offset: 12)
        ) {
            _ = try AvailabilityAttribute(attributeBytes: hex("12 0a 00 01 00 00 05 00 02 00 10 02 04"))
        }
    }

    @Test func entryLengthLongerThanAttribute() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 9, actual: 0),
                structure: "NAN Availability attribute",
                field: "Availability Entry Length",
                offset: 8
            )
        ) {
            _ = try AvailabilityAttribute(attributeBytes: hex("12 05 00 01 00 00 09 00"))
        }
    }

    @Test func timeBitmapPresentButMissing() {
        // Entry control 0x1001 says a time bitmap follows; the entry ends.
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 0),
                structure: "NAN Availability attribute",
                field: "Time Bitmap Control",
                offset: 10
            )
        ) {
            _ = try AvailabilityAttribute(attributeBytes: hex("12 07 00 01 00 00 02 00 01 10"))
        }
    }
}

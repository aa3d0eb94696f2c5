import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

@Suite struct DataPathScheduleTests {
    // nan-wire-reference.md 2.7: b0-2 duration 2 (64 TU), b3-5 period 4 (1024 TU),
    // b6-14 start offset 5, b15 reserved set: 0x8000 | 5 << 6 | 4 << 3 | 2 = 0x8162.
    @Test func timeBitmapControlGoldenAndAccessors() throws {
        let control = TimeBitmapControl(bitDuration: .tu64, period: .tu1024, startOffset: 5, reservedBit: true)
        #expect(control.wireBytes == hex("62 81"))
        let parsed = try TimeBitmapControl(wireBytes: hex("62 81"), structure: "Time Bitmap Control")
        #expect(parsed == control)
        #expect(parsed.bitDuration == .tu64)
        #expect(parsed.period == .tu1024)
        #expect(parsed.period.timeUnits == 1024)
        #expect(parsed.startOffset == 5)
        #expect(parsed.startOffsetTU == 80)
        #expect(parsed.reservedBit)
    }

    @Test func timeBitmapControlKeepsReservedDurationCodes() throws {
        // Duration code 6 (reserved), period 0 (no repeat): 0x0006.
        let parsed = try TimeBitmapControl(wireBytes: hex("06 00"), structure: "Time Bitmap Control")
        #expect(parsed.bitDuration == .reserved(6))
        #expect(parsed.bitDuration.timeUnits == nil)
        #expect(parsed.period == .noRepeat)
        #expect(parsed.period.timeUnits == nil)
        #expect(parsed.wireBytes == hex("06 00"))
    }

    @Test func timeBitmapControlTruncated() {
        #expect(
            throws: WireError(.truncated(need: 2, have: 1), structure: "TBC", field: "Time Bitmap Control", offset: 0)
        ) {
            _ = try TimeBitmapControl(wireBytes: [0x18], structure: "TBC")
        }
    }

    @Test func timeBitmapSlotsAndIntervals() throws {
        // Control 0x8162 (64 TU bits from 80 TU), length 1, bitmap 0x05: slots 0 and 2.
        let bitmap = try TimeBitmap(wireBytes: hex("62 81 01 05"), structure: "Time Bitmap")
        #expect(bitmap.bitmap == [0x05])
        #expect(bitmap.slotIndices == [0, 2])
        #expect(bitmap.intervalsTU == [80..<144, 208..<272])
        #expect(bitmap.wireBytes == hex("62 81 01 05"))
    }

    @Test func timeBitmapSlotsAcrossOctets() {
        // 16 TU bits, 512 TU period (0x0018), bitmap fe ff fe ff as hostap sends.
        let bitmap = TimeBitmap(control: TimeBitmapControl(rawValue: 0x0018), bitmap: hex("fe ff fe ff"))
        #expect(bitmap.slotIndices == Array(1...15) + Array(17...31))
        #expect(bitmap.intervalsTU?.first == 16..<32)
        #expect(bitmap.intervalsTU?.last == 496..<512)
        #expect(bitmap.wireBytes == hex("18 00 04 fe ff fe ff"))
    }

    @Test func timeBitmapWithReservedDurationHasNoIntervals() {
        let bitmap = TimeBitmap(control: TimeBitmapControl(rawValue: 0x0007), bitmap: [0x01])
        #expect(bitmap.slotIndices == [0])
        #expect(bitmap.intervalsTU == nil)
    }

    @Test func timeBitmapLengthLongerThanContent() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 4, actual: 2),
                structure: "Time Bitmap",
                field: "Time Bitmap Length",
                offset: 3
            )
        ) {
            _ = try TimeBitmap(wireBytes: hex("18 00 04 fe ff"), structure: "Time Bitmap")
        }
    }

    // 2.7: control b0 type 1 (channels), b1 non-contiguous, b4-7 one entry = 0x13;
    // op class 128, channel bitmap 0x0004, primary 0x01, aux 0x0010.
    @Test func nonContiguousChannelEntryGolden() throws {
        let entry = ChannelEntry(
            operatingClass: 128,
            channelBitmap: 0x0004,
            primaryChannelBitmap: 0x01,
            auxiliaryChannelBitmap: 0x0010
        )
        let list = BandChannelEntries(channels: [entry])
        #expect(list.nonContiguousBandwidth)
        #expect(list.control == 0x13)
        #expect(list.wireBytes == hex("13 80 04 00 01 10 00"))
        let parsed = try BandChannelEntries(wireBytes: hex("13 80 04 00 01 10 00"), structure: "Band/Channel Entries")
        #expect(parsed == list)
    }

    @Test func bandIDsKeepReservedControlBits() throws {
        // Control 0x2c: type 0 (bands), reserved b2-3 both set, two entries.
        let parsed = try BandChannelEntries(wireBytes: hex("2c 02 04"), structure: "Band/Channel Entries")
        #expect(parsed.entries == .bands([.band2_4GHz, .band5GHz]))
        #expect(parsed.reservedBits == 3)
        #expect(parsed.wireBytes == hex("2c 02 04"))
    }

    @Test func sixGHzChannelEntryDescribesStartAndCount() {
        let entry = ChannelEntry(operatingClass: 131, channelBitmap: 0x0401, primaryChannelBitmap: 0)
        #expect(entry.decodedFields.contains(DecodedField("startChannelNumber", "Start Channel Number", .unsigned(1))))
        #expect(entry.decodedFields.contains(DecodedField("numberOfChannels", "Number of Channels", .unsigned(4))))
    }

    @Test func moreEntriesDeclaredThanPresent() {
        // Control 0x30: three band IDs, only two follow.
        #expect(
            throws: WireError(
                .truncated(need: 1, have: 0),
                structure: "Band/Channel Entries",
                field: "Band ID",
                offset: 3
            )
        ) {
            _ = try BandChannelEntries(wireBytes: hex("30 02 04"), structure: "Band/Channel Entries")
        }
    }

    @Test func channelEntryShortOfAuxiliaryBitmap() {
        // Non-contiguous (0x13) but the entry has only 4 octets.
        #expect(
            throws: WireError(
                .truncated(need: 6, have: 4),
                structure: "Band/Channel Entries",
                field: "Channel Entry",
                offset: 1
            )
        ) {
            _ = try BandChannelEntries(wireBytes: hex("13 80 04 00 01"), structure: "Band/Channel Entries")
        }
    }

    @Test func scheduleEntryKeepsReservedMapBits() throws {
        // Map ID octet 0xf2: map 2, reserved high nibble set.
        let entry = try ScheduleEntry(wireBytes: hex("f2 18 00 01 0f"), structure: "Schedule Entry")
        #expect(entry.mapID == 2)
        #expect(entry.timeBitmap.slotIndices == [0, 1, 2, 3])
        #expect(entry.wireBytes == hex("f2 18 00 01 0f"))
    }
}

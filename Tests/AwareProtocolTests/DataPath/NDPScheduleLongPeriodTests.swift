import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

/// Availability as phones send it beyond this bench's own 512 TU schedules (issue 15): periods of
/// 1024-8192 TU, several maps, conditional entries, wider channels. Expected slots and octets are
/// worked out by hand from nan-wire-reference.md 2.7 and IEEE 802.11 Annex E.
@Suite struct NDPScheduleLongPeriodTests {
    private func written(_ body: some WireCodable) -> [UInt8] {
        var writer = WireWriter()
        body.write(to: &writer)
        return writer.bytes
    }

    private func entry(
        _ kind: AvailabilityEntryKind,
        control: UInt16,
        bitmap: [UInt8],
        op: UInt8 = 124,
        channels: UInt16 = 1,
        primary: UInt8 = 0
    ) -> AvailabilityEntry {
        AvailabilityEntry(
            committed: kind == .committed,
            potential: kind == .potential,
            conditional: kind == .conditional,
            timeBitmap: TimeBitmap(control: TimeBitmapControl(rawValue: control), bitmap: bitmap),
            bandChannelEntries: BandChannelEntries(
                channels: [ChannelEntry(operatingClass: op, channelBitmap: channels, primaryChannelBitmap: primary)]
            )
        )
    }

    private func map(_ id: UInt8, _ entries: [AvailabilityEntry]) -> AvailabilityAttribute {
        AvailabilityAttribute(sequenceID: 1, mapID: id, entries: entries)
    }

    /// Period 1024 TU (code 4 -> control 4 << 3 = 0x0020), 16 TU bits, 8 octets: octet 0 = 0x01
    /// (slot 0), octet 5 = 0x02 (bit 41 = slot 41). Slot 41 is in the second 512 TU only, so the
    /// schedule keeps its 64 slots instead of folding slot 41 onto slot 9 of every period.
    @Test func aThousandTwentyFourTUPeriodKeepsItsSecondHalf() throws {
        let attribute = map(0, [entry(.committed, control: 0x0020, bitmap: hex("01 00 00 00 00 02 00 00"))])
        let schedule = try #require(NDPSchedule(availability: attribute))
        #expect(schedule.periodSlots == 64)
        #expect(schedule.periodTU == 1_024)
        #expect(schedule.slots == [0, 41])
        // Against a 512 TU schedule holding slots 0 and 9 every period: only slot 0 of each half
        // and slot 41 (9 of the second half) are common, a 1024 TU pattern.
        let own = NDPSchedule(slots: [0, 9])
        let common = try #require(own.intersection(schedule))
        #expect(common.periodSlots == 64)
        #expect(common.slots == [0, 41])
        #expect(!own.contains(NDPSchedule(slots: [0, 1])))
        #expect(schedule.slotsInFirstBlock == 1)
        // Encoded back: same control 0x0020, 8 octets.
        #expect(written(common.timeBitmap) == hex("2000 08 0100000000020000"))
    }

    /// Period 8192 TU (code 7 -> 0x0038): 64 octets, the largest hostap accepts. Bit 511 is the
    /// last slot of the last 512 TU block.
    @Test func anEightThousandTUPeriodIsSixtyFourOctets() throws {
        var bitmap = [UInt8](repeating: 0, count: 64)
        bitmap[0] = 0x01
        bitmap[63] = 0x80
        let attribute = map(0, [entry(.committed, control: 0x0038, bitmap: bitmap)])
        let schedule = try #require(NDPSchedule(availability: attribute))
        #expect(schedule.periodSlots == 512)
        #expect(schedule.slots == [0, 511])
        #expect(schedule.timeBitmap.bitmap == bitmap)
        #expect(schedule.timeBitmap.control.rawValue == 0x0038)
    }

    /// A long period whose blocks repeat is the 512 TU schedule it is: 1024 TU with slots 3 and 35
    /// normalizes to 512 TU with slot 3, written 0x0018 / 08 00 00 00.
    @Test func aRepeatingLongPeriodNormalizes() throws {
        let attribute = map(0, [entry(.committed, control: 0x0020, bitmap: hex("08 00 00 00 08 00 00 00"))])
        let schedule = try #require(NDPSchedule(availability: attribute))
        #expect(schedule.periodSlots == 32)
        #expect(schedule.slots == [3])
        #expect(written(schedule.timeBitmap) == hex("1800 04 08000000"))
    }

    /// 128 TU bits (code 3) over 2048 TU (code 5): control 0x0003 | 5 << 3 = 0x002B; bit 1 covers
    /// TU 128-256 = slots 8-15 of a 128-slot period.
    @Test func wideBitsOverALongPeriod() throws {
        let schedule = try #require(
            NDPSchedule(availability: map(0, [entry(.committed, control: 0x002B, bitmap: hex("02"))]))
        )
        #expect(schedule.periodSlots == 128)
        #expect(schedule.slots == Array(8...15))
    }

    /// A bitmap that does not repeat (Period 0) is read over hostap's 8192 TU horizon.
    @Test func noRepeatIsReadOverEightThousandTU() throws {
        let schedule = try #require(
            NDPSchedule(availability: map(0, [entry(.committed, control: 0x0000, bitmap: hex("01"))]))
        )
        #expect(schedule.periodSlots == 512)
        #expect(schedule.slots == [0])
    }

    /// Several maps (one attribute each) and conditional entries: the committed and conditional
    /// slots of every map, per primary channel, sorted by channel (6 before 149).
    @Test func severalMapsAndConditionalEntries() throws {
        let twoPointFour = map(
            1,
            [entry(.committed, control: 0x0018, bitmap: hex("01000000"), op: 81, channels: 0x0020)]
        )
        let five = map(
            2,
            [
                entry(.committed, control: 0x0018, bitmap: hex("02000000")),
                entry(.conditional, control: 0x0018, bitmap: hex("00020000")),
            ]
        )
        let committed = try #require(NDPSchedule.schedules(in: [twoPointFour, five], kinds: [.committed]))
        #expect(committed.map(\.channel) == [.channel6, .channel149])
        #expect(committed.map(\.slots) == [[0], [1]])
        let both = try #require(NDPSchedule.schedules(in: [twoPointFour, five], kinds: [.committed, .conditional]))
        #expect(both.last?.slots == [1, 9])
        // The single-attribute reading still refuses a committed schedule on two channels.
        #expect(
            NDPSchedule(availability: map(0, twoPointFour.entries + five.entries.prefix(1))) == nil
        )
    }

    /// IEEE 802.11 Annex E: class 126 (40 MHz, primary lower) bit 0 = 149; class 127 bit 0 = 153;
    /// class 128 (80 MHz) bit 5 = centre 155, Primary Channel Bitmap bit 0 = 149, bit 3 = 161;
    /// class 129 (160 MHz) bit 2 = centre 163, primary bit 0 = 149; class 115 bit 0 = 36.
    @Test func wideChannelEntries() throws {
        func primary(_ op: UInt8, _ bitmap: UInt16, _ primary: UInt8 = 0) -> (UInt8, Int)? {
            NANChannel.primary(
                of: ChannelEntry(operatingClass: op, channelBitmap: bitmap, primaryChannelBitmap: primary)
            ).map { ($0.channel.number, $0.bandwidthMHz) }
        }
        #expect(primary(126, 0x0001).map { [Int($0.0), $0.1] } == [149, 40])
        #expect(primary(127, 0x0001).map { [Int($0.0), $0.1] } == [153, 40])
        #expect(primary(128, 0x0020, 0x01).map { [Int($0.0), $0.1] } == [149, 80])
        #expect(primary(128, 0x0020, 0x08).map { [Int($0.0), $0.1] } == [161, 80])
        #expect(primary(129, 0x0004, 0x01).map { [Int($0.0), $0.1] } == [149, 160])
        #expect(primary(115, 0x0001).map { [Int($0.0), $0.1] } == [36, 20])
        // An 80 MHz entry without a primary bit reads as its lowest channel (hostap refuses it).
        #expect(primary(128, 0x0020).map { [Int($0.0), $0.1] } == [149, 80])
        // A primary bit past the block.
        #expect(primary(128, 0x0020, 0x10) == nil)

        let c149 = NANChannel.channel149
        #expect(
            c149.channelEntry(bandwidthMHz: 80)
                == ChannelEntry(operatingClass: 128, channelBitmap: 0x0020, primaryChannelBitmap: 0x01)
        )
        #expect(
            c149.channelEntry(bandwidthMHz: 40)
                == ChannelEntry(operatingClass: 126, channelBitmap: 0x0001, primaryChannelBitmap: 0)
        )
        #expect(
            c149.channelEntry(bandwidthMHz: 160)
                == ChannelEntry(operatingClass: 129, channelBitmap: 0x0004, primaryChannelBitmap: 0x01)
        )
        let c161 = try #require(NANChannel(number: 161))
        #expect(
            c161.channelEntry(bandwidthMHz: 80)
                == ChannelEntry(operatingClass: 128, channelBitmap: 0x0020, primaryChannelBitmap: 0x08)
        )
        #expect(NANChannel(number: 36)?.frequencyMHz == 5_180)
        #expect(NANChannel(number: 6) == .channel6)
        #expect(NANChannel(number: 37) == nil)
        #expect(NANChannel.channel6.channelEntry(bandwidthMHz: 40) == nil)
    }

    /// A schedule on 149 at 80 MHz reads back with its bandwidth; the intersection with a 20 MHz
    /// schedule on the same primary keeps the narrower one.
    @Test func bandwidthTravelsWithTheSchedule() throws {
        let wide = NDPSchedule(slots: [1, 2], bandwidthMHz: 80)
        let attribute = map(0, [wide.entry(.committed, style: NDPAvailabilityStyle())])
        let read = try #require(NDPSchedule(availability: attribute))
        #expect(read.bandwidthMHz == 80)
        #expect(read.slots == [1, 2])
        #expect(NDPSchedule(slots: [1]).intersection(read)?.bandwidthMHz == 20)
    }
}

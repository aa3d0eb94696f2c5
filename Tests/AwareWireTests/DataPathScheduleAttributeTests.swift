import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

@Suite struct DataPathScheduleAttributeTests {
    // nan-wire-reference.md 2.8: NDC ID 02:00:00:00:00:01, control 0x01 (selected),
    // one schedule entry: map 1, TBC 0x0018, length 2, bitmap 01 00. Body 13 octets.
    @Test func ndcGolden() throws {
        let expected = hex("13 0d 00 02 00 00 00 00 01 01 01 18 00 02 01 00")
        let ndc = NDCAttribute(
            ndcID: MACAddress(0x02, 0, 0, 0, 0, 0x01),
            selected: true,
            scheduleEntries: [
                ScheduleEntry(
                    mapIDField: 1,
                    timeBitmap: TimeBitmap(
                        control: TimeBitmapControl(bitDuration: .tu16, period: .tu512),
                        bitmap: [0x01, 0x00]
                    )
                )
            ]
        )
        #expect(ndc.attributeBytes == expected)
        let parsed = try NDCAttribute(attributeBytes: expected)
        #expect(parsed == ndc)
        #expect(parsed.isSelected)
        #expect(parsed.scheduleEntries[0].mapID == 1)
        #expect(parsed.scheduleEntries[0].timeBitmap.slotIndices == [0])
    }

    @Test func ndcFromHostapSessionFrame23() throws {
        // session.pcap frame 23 (Data Path Response), NDC attribute at frame offset 227.
        let bytes = hex("13 0c 00 21 c0 04 89 9e a7 01 00 18 00 01 fe")
        let ndc = try NDCAttribute(attributeBytes: bytes)
        #expect(ndc.ndcID == MACAddress(string: "21:c0:04:89:9e:a7"))
        #expect(ndc.isSelected)
        #expect(ndc.scheduleEntries.count == 1)
        #expect(ndc.scheduleEntries[0].mapID == 0)
        #expect(ndc.scheduleEntries[0].timeBitmap.control.period == .tu512)
        #expect(ndc.scheduleEntries[0].timeBitmap.slotIndices == Array(1...7))
        #expect(ndc.attributeBytes == bytes)
    }

    @Test func ndcTimeBitmapLengthTooLong() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 5, actual: 1),
                structure: "NDC attribute",
                field: "Time Bitmap Length",
                offset: 14
            )
        ) {
            _ = try NDCAttribute(attributeBytes: hex("13 0c 00 02 00 00 00 00 01 01 00 18 00 05 fe"))
        }
    }

    // 2.8: control 0x0503 (schedule 3, sequence 5), starting time 0x00012345, duration 16,
    // period 512, count down 7, ULW overwrite 0x04 (map 2), ULW control 0x15 (type 1 channel
    // entry, channel availability, Rx NSS 2), channel entry op class 115, bitmap 0x0001, primary 1.
    @Test func unalignedScheduleWithChannelEntryGolden() throws {
        let expected = hex("17 15 00 03 05 45 23 01 00 10 00 00 00 00 02 00 00 07 04 15 73 01 00 01")
        let schedule = UnalignedScheduleAttribute(
            scheduleID: 3,
            sequenceID: 5,
            startingTime: 0x0001_2345,
            duration: 16,
            period: 512,
            countDown: 7,
            overwriteAll: false,
            overwriteMapID: 2,
            channel: UnalignedScheduleChannel(
                target: .channel(ChannelEntry(operatingClass: 115, channelBitmap: 0x0001, primaryChannelBitmap: 0x01)),
                channelAvailability: true,
                rxNSS: 2
            )
        )
        #expect(schedule.attributeBytes == expected)
        let parsed = try UnalignedScheduleAttribute(attributeBytes: expected)
        #expect(parsed == schedule)
        #expect(parsed.scheduleID == 3)
        #expect(parsed.sequenceID == 5)
        #expect(parsed.overwriteMapID == 2)
        #expect(!parsed.overwriteAll)
        #expect(parsed.channel?.type == 1)
        #expect(parsed.channel?.rxNSS == 2)
        #expect(parsed.channel?.channelAvailability == true)
    }

    @Test func unalignedScheduleBandAndAuxVariants() throws {
        // ULW control 0x00 + band 4 (5 GHz); and type 2 with a 6-octet channel entry.
        let band = hex("17 12 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00 04")
        let parsedBand = try UnalignedScheduleAttribute(attributeBytes: band)
        #expect(parsedBand.overwriteAll)
        #expect(parsedBand.channel?.target == .band(.band5GHz))
        #expect(parsedBand.attributeBytes == band)

        let aux = hex("17 17 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 82 80 04 00 01 10 00")
        let parsedAux = try UnalignedScheduleAttribute(attributeBytes: aux)
        #expect(parsedAux.channel?.type == 2)
        #expect(parsedAux.channel?.ulwControl == 0x82)
        guard case .channel(let entry) = parsedAux.channel?.target else {
            Issue.record("expected a channel entry")
            return
        }
        #expect(entry.auxiliaryChannelBitmap == 0x0010)
        #expect(parsedAux.attributeBytes == aux)
    }

    @Test func unalignedScheduleWithoutULW() throws {
        let bytes = hex("17 10 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00")
        let parsed = try UnalignedScheduleAttribute(attributeBytes: bytes)
        #expect(parsed.channel == nil)
        #expect(parsed.sequenceID == 1)
        #expect(parsed.attributeBytes == bytes)
    }

    @Test func unalignedScheduleReservedULWType() {
        #expect(
            throws: WireError(
                .invalidValue("ULW Control type 3 is reserved"),
                structure: "Unaligned Schedule attribute",
                field: "ULW Control",
                offset: 19
            )
        ) {
            _ = try UnalignedScheduleAttribute(
                attributeBytes: hex("17 12 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 03 04")
            )
        }
    }

    @Test func unalignedScheduleTruncated() {
        #expect(
            throws: WireError(
                .truncated(need: 4, have: 2),
                structure: "Unaligned Schedule attribute",
                field: "Period",
                offset: 13
            )
        ) {
            _ = try UnalignedScheduleAttribute(attributeBytes: hex("17 0c 00 00 00 00 00 00 00 00 00 00 00 00 00"))
        }
    }
}

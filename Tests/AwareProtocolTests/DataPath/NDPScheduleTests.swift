import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

/// NDPSchedule <-> NAN Availability (nan-wire-reference.md 2.7), channel entries, and the
/// performance mode's NDL QoS. Expected octets are written by hand from the layouts of 2.7.
@Suite struct NDPScheduleTests {
    private func written(_ body: some WireCodable) -> [UInt8] {
        var writer = WireWriter()
        body.write(to: &writer)
        return writer.bytes
    }

    /// Bulk: slots 1, 2, 9, 10, 17, 18, 25, 26 -> each octet has bits 1 and 2 -> 06 06 06 06;
    /// control: duration 0 (16 TU) | period 3 (512 TU) << 3 = 0x0018.
    @Test func bulkTimeBitmap() {
        #expect(written(NDPSchedule(mode: .bulk).timeBitmap) == hex("1800 04 06060606"))
        #expect(NDPSchedule(mode: .bulk).timeBitmap == PerformanceMode.bulk.timeBitmap)
    }

    /// Start offset 16 (256 TU): slots 0 and 1 are bits 16 and 17 -> octet 2 = 0x03;
    /// control 0x0018 | 16 << 6 = 0x0418.
    @Test func startOffsetRotatesTheBitmap() {
        let schedule = NDPSchedule(channel: .channel6, slots: [1, 0, 1, 40, -1], startOffset: 16)
        #expect(schedule.slots == [0, 1])
        #expect(written(schedule.timeBitmap) == hex("1804 04 00000300"))
    }

    /// Committed bulk on channel 149 + potential everywhere, hostap's entry preferences:
    /// committed control 0x11E1 (committed, utilization 7, Rx NSS 1, time bitmap), channel entry
    /// 0x11 | op class 124 (0x7c) | bitmap 0x0001 (149) | primary 0; potential control 0x07FA
    /// (potential, preference 3, utilization 7, Rx NSS 7) without a time bitmap.
    @Test func availabilityAttributeGoldenBytes() {
        let attribute = NDPFrames.availability(
            committed: NDPSchedule(mode: .bulk),
            potential: NDPTest.allSlots,
            style: NDPAvailabilityStyle(sequenceID: 0)
        )
        guard case .availability(let availability) = attribute else {
            Issue.record("not an availability attribute")
            return
        }
        #expect(
            availability.attributeBytes
                == hex("12 1c00 00 3000 0e00 e111 1800 04 06060606 11 7c 0100 00 0700 fa07 11 7c 0100 00")
        )
        #expect(NDPSchedule(availability: availability) == NDPSchedule(mode: .bulk))
        #expect(NDPSchedule(potentialIn: availability)?.isFull == true)
    }

    private func availability(_ entries: [AvailabilityEntry]) -> AvailabilityAttribute {
        AvailabilityAttribute(sequenceID: 1, mapID: 0, entries: entries)
    }

    private func committed(
        _ control: UInt16,
        _ bitmap: [UInt8],
        op: UInt8 = 124,
        channels: UInt16 = 1
    ) -> AvailabilityEntry {
        AvailabilityEntry(
            committed: true,
            timeBitmap: TimeBitmap(control: TimeBitmapControl(rawValue: control), bitmap: bitmap),
            bandChannelEntries: BandChannelEntries(
                channels: [ChannelEntry(operatingClass: op, channelBitmap: channels, primaryChannelBitmap: 0)]
            )
        )
    }

    /// Bit durations, periods and offsets fold onto the 32 slots of 512 TU.
    @Test func decodingDurationsPeriodsAndOffsets() {
        // 32 TU bits (code 1), period 512: bit 0 = TU 0-32 = slots 0, 1.
        #expect(NDPSchedule(availability: availability([committed(0x0019, [0x01])]))?.slots == [0, 1])
        // 16 TU bits, period 128 (code 1 << 3): slot 0 every 128 TU = slots 0, 8, 16, 24.
        #expect(NDPSchedule(availability: availability([committed(0x0008, [0x01])]))?.slots == [0, 8, 16, 24])
        // Start offset 2 (32 TU): 0x0018 | 2 << 6 = 0x0098, bit 0 = slot 2.
        #expect(NDPSchedule(availability: availability([committed(0x0098, [0x01])]))?.slots == [2])
        // Two committed entries on one channel are a union.
        let two = availability([committed(0x0018, [0x01]), committed(0x0018, [0x00, 0x01])])
        #expect(NDPSchedule(availability: two)?.slots == [0, 8])
    }

    @Test func decodingRefusals() {
        // Two channels: not modelled.
        let split = availability([committed(0x0018, [0x01]), committed(0x0018, [0x02], channels: 2)])
        #expect(NDPSchedule(availability: split) == nil)
        // A reserved bit duration (code 4).
        #expect(NDPSchedule(availability: availability([committed(0x001C, [0x01])])) == nil)
        // Band entries name no channel.
        let band = AvailabilityEntry(
            committed: true,
            timeBitmap: NDPSchedule(mode: .bulk).timeBitmap,
            bandChannelEntries: BandChannelEntries(bands: [BandID(4)])
        )
        #expect(NDPSchedule(availability: availability([band])) == nil)
        // No committed entry at all.
        #expect(NDPSchedule(availability: availability([])) == nil)
        // An empty bitmap commits nothing.
        #expect(NDPSchedule(availability: availability([committed(0x0018, [0x00])])) == nil)
    }

    @Test func channelEntries() {
        let six = NANChannel(
            channelEntry: ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)
        )
        #expect(six == .channel6)
        let fortyFour = NANChannel(
            channelEntry: ChannelEntry(operatingClass: 115, channelBitmap: 0x0004, primaryChannelBitmap: 0)
        )
        #expect(fortyFour == .channel44)
        #expect(
            NANChannel.channel149.channelEntry
                == ChannelEntry(operatingClass: 124, channelBitmap: 0x0001, primaryChannelBitmap: 0)
        )
        #expect(NANChannel.channel6.channelEntry.channelBitmap == 0x0020)
        #expect(
            NANChannel(channelEntry: ChannelEntry(operatingClass: 200, channelBitmap: 1, primaryChannelBitmap: 0))
                == nil
        )
        #expect(
            NANChannel(channelEntry: ChannelEntry(operatingClass: 124, channelBitmap: 0, primaryChannelBitmap: 0))
                == nil
        )
        #expect(
            NANChannel(channelEntry: ChannelEntry(operatingClass: 124, channelBitmap: 0x0010, primaryChannelBitmap: 0))
                == nil
        )
    }

    @Test func setOperations() {
        let bulk = NDPSchedule(mode: .bulk)
        #expect(bulk.longestGapSlots == 6)
        #expect(NDPTest.allSlots.longestGapSlots == 0)
        #expect(NDPTest.allSlots.contains(bulk) && !bulk.contains(NDPTest.allSlots))
        #expect(NDPTest.allSlots.intersection(bulk)?.slots == bulk.slots)
        #expect(NDPSchedule(channel: .channel44, slots: [1]).intersection(bulk) == nil)
    }

    /// bulk -> 8 slots, 6 slots of latency (its longest gap, 96 TU): 15 0300 08 0600;
    /// realtime -> 31 slots, latency 1: 15 0300 1f 0100.
    @Test func performanceModeNDLQoS() {
        #expect(PerformanceMode.bulk.ndlQoS.attributeBytes == hex("15 0300 08 0600"))
        #expect(PerformanceMode.realtime.ndlQoS.attributeBytes == hex("15 0300 1f 0100"))
        for mode in PerformanceMode.allCases { #expect(PerformanceMode(ndlQoS: mode.ndlQoS) == mode) }
        #expect(PerformanceMode(ndlQoS: nil) == .bulk)
        // Session A's hostap request: 12 slots, latency 3.
        #expect(PerformanceMode(ndlQoS: NDLQoSAttribute(minimumTimeSlots: 12, maximumLatency: 3)) == .bulk)
        #expect(PerformanceMode(ndlQoS: NDLQoSAttribute(minimumTimeSlots: 0, maximumLatency: 0xFFFF)) == .bulk)
        #expect(PerformanceMode(ndlQoS: NDLQoSAttribute(minimumTimeSlots: 31, maximumLatency: 0xFFFF)) == .realtime)
        #expect(PerformanceMode(ndlQoS: NDLQoSAttribute(minimumTimeSlots: 0, maximumLatency: 1)) == .realtime)
    }

    @Test func failureDescriptionsNameTheReason() {
        let failure = NDPFailure(.openRefused, reason: .securityPolicy)
        #expect(failure.description.hasSuffix("(reason 8 SECURITY_POLICY)"))
        #expect(NDPFailure(.timeout(.awaitingResponse)).description.contains("awaitingResponse"))
    }
}

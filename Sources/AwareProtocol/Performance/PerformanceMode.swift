import AwareWire

/// Apple's Wi-Fi Aware performance modes (apple-peer-model.md 1.7): `bulk`, the default,
/// optimises throughput and power; `realtime` trades power for latency. Apple says only that the
/// mode "influences the Wi-Fi Aware duty cycle" (WWDC25 session 228) and publishes no numbers, so
/// the schedule each mode gets here is this bench's model, chosen to bracket the behaviour that
/// matters:
///
/// - `bulk`: the data channel is available in 4 blocks of 32 TU every 512 TU (one right after
///   each 128 TU quarter of the discovery-window interval), a 25 % duty cycle with no gap longer
///   than 96 TU (98 ms). Throughput is a quarter of the link; a datagram waits at most about a
///   tenth of a second.
/// - `realtime`: available in every 16 TU slot (100 %): latency is contention and airtime only.
///
/// Availability only inside the discovery windows (16 TU every 512 TU, 3 %) is not a mode: it is
/// the defect of esp-idf #19066, a 50 packet/s stream delivered in bursts of about 26 packets
/// every 512 TU, which the bench's burst detection must catch.
public enum PerformanceMode: String, Codable, Hashable, Sendable, CaseIterable {
    case bulk
    case realtime

    /// The discovery-window interval the schedules repeat over (nan-wire-reference.md 1.4).
    public static let periodTU = 512
    /// One bitmap bit: the smallest NAN availability slot.
    public static let slotTU = 16

    /// The 16 TU slots (0-31 of a 512 TU period) in which the device is available for data.
    public var availableSlots: [Int] {
        switch self {
        case .bulk: [1, 2, 9, 10, 17, 18, 25, 26]
        case .realtime: Array(0..<32)
        }
    }

    /// The share of time the data radio is on.
    public var dutyCycle: Double {
        Double(availableSlots.count * Self.slotTU) / Double(Self.periodTU)
    }

    /// The longest stretch without availability, in TU, across the period boundary.
    public var longestGapTU: Int {
        let slots = availableSlots
        guard let first = slots.first, let last = slots.last else { return Self.periodTU }
        var longest = (first + 32 - last - 1) * Self.slotTU
        for (previous, next) in zip(slots, slots.dropFirst()) {
            longest = max(longest, (next - previous - 1) * Self.slotTU)
        }
        return longest
    }

    /// The schedule as a NAN Availability time bitmap: 16 TU bits, 512 TU period, start offset 0
    /// (nan-wire-reference.md 2.7).
    public var timeBitmap: TimeBitmap {
        var octets = [UInt8](repeating: 0, count: 4)
        for slot in availableSlots { octets[slot / 8] |= 1 << UInt8(slot % 8) }
        return TimeBitmap(control: TimeBitmapControl(bitDuration: .tu16, period: .tu512), bitmap: octets)
    }
}

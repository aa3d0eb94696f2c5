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

extension PerformanceMode {
    /// The NDL QoS minimum a realtime initiator asks for: every slot but one. The slot given up
    /// is the one the discovery window takes on the NAN channel, so a responder that keeps its
    /// DW slot out of the data schedule still satisfies a realtime request (this bench's choice;
    /// Apple publishes no numbers, apple-peer-model.md 1.7).
    public static let realtimeMinimumTimeSlots: UInt8 = 31
    /// Realtime tolerates at most one 16 TU slot between two available slots.
    public static let realtimeMaximumLatency: UInt16 = 1

    /// The NDL QoS attribute (nan-wire-reference.md 2.2, 0x15) an initiator sends to signal
    /// this mode: minimum time slots and maximum latency, both in 16 TU slots.
    /// bulk: 8 slots (its 8 available slots), latency = its longest gap (6 slots, 96 TU).
    public var ndlQoS: NDLQoSAttribute {
        switch self {
        case .bulk:
            NDLQoSAttribute(
                minimumTimeSlots: UInt8(truncatingIfNeeded: availableSlots.count),
                maximumLatency: UInt16(truncatingIfNeeded: longestGapTU / Self.slotTU)
            )
        case .realtime:
            NDLQoSAttribute(
                minimumTimeSlots: Self.realtimeMinimumTimeSlots,
                maximumLatency: Self.realtimeMaximumLatency
            )
        }
    }

    /// The mode a peer's NDL QoS asks for: realtime when it wants nearly every slot or at most
    /// one slot of latency, bulk otherwise (including "no preference" in both fields). A
    /// request without NDL QoS is bulk, Apple's default mode.
    public init(ndlQoS: NDLQoSAttribute?) {
        guard let ndlQoS else {
            self = .bulk
            return
        }
        let wantsLatency = ndlQoS.hasLatencyPreference && ndlQoS.maximumLatency <= Self.realtimeMaximumLatency
        let wantsSlots = ndlQoS.minimumTimeSlots >= Self.realtimeMinimumTimeSlots
        self = wantsLatency || wantsSlots ? .realtime : .bulk
    }
}

/// Whether two sides of a data path asked for the same performance: Apple warns that
/// "mismatched performance modes lead to an undefined behavior" (apple-peer-model.md 1.7), so the
/// bench reports a mismatch instead of tolerating it.
public enum PerformanceAgreement: Hashable, Sendable {
    case agreed(PerformanceMode, AccessCategory)
    case modeMismatch(local: PerformanceMode, peer: PerformanceMode)
    /// Same mode, different service classes: legal (each side's frames use their own category),
    /// but reported, since the phone's report shows only categories in use.
    case classMismatch(mode: PerformanceMode, local: ServiceClass, peer: ServiceClass)

    public init(local: (PerformanceMode, ServiceClass), peer: (PerformanceMode, ServiceClass)) {
        if local.0 != peer.0 {
            self = .modeMismatch(local: local.0, peer: peer.0)
        } else if local.1 != peer.1 {
            self = .classMismatch(mode: local.0, local: local.1, peer: peer.1)
        } else {
            self = .agreed(local.0, local.1.accessCategory)
        }
    }

    /// Whether a data path can run as both asked.
    public var isAgreed: Bool {
        if case .agreed = self { true } else { false }
    }
}

import AwareWire

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

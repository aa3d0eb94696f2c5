/// NDL QoS attribute (0x15) (nan-wire-reference.md 2.2; hostap `struct ieee80211_nan_qos`):
/// Minimum Time Slots (1) | Maximum Latency (2, LE).
/// 0 minimum slots and 0xFFFF maximum latency mean "no preference".
public struct NDLQoSAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.ndlQoS

    public static let noPreferenceMinimumTimeSlots: UInt8 = 0
    public static let noPreferenceMaximumLatency: UInt16 = 0xFFFF

    public var minimumTimeSlots: UInt8
    public var maximumLatency: UInt16

    public init(minimumTimeSlots: UInt8, maximumLatency: UInt16) {
        self.minimumTimeSlots = minimumTimeSlots
        self.maximumLatency = maximumLatency
    }

    public var hasLatencyPreference: Bool { maximumLatency != Self.noPreferenceMaximumLatency }
    public var hasMinimumTimeSlotsPreference: Bool { minimumTimeSlots != Self.noPreferenceMinimumTimeSlots }

    public init(from reader: inout WireReader) throws(WireError) {
        minimumTimeSlots = try reader.readUInt8("Minimum Time Slots")
        maximumLatency = try reader.readUInt16LE("Maximum Latency")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(minimumTimeSlots)
        writer.writeUInt16LE(maximumLatency)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField(
                "minimumTimeSlots",
                "Minimum Time Slots",
                hasMinimumTimeSlotsPreference
                    ? .unsigned(UInt64(minimumTimeSlots)) : .named(UInt64(minimumTimeSlots), "No preference")
            ),
            DecodedField(
                "maximumLatency",
                "Maximum Latency",
                hasLatencyPreference
                    ? .unsigned(UInt64(maximumLatency)) : .named(UInt64(maximumLatency), "No preference")
            ),
        ]
    }
}

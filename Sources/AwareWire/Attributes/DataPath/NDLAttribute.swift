/// NDL attribute (0x14) (nan-wire-reference.md 2.9):
/// Dialog Token (1) | Type and Status (1) | Reason Code (1) | NDL Control (1) |
/// [NDL Peer ID (1)] | [Max Idle Period (2, LE)] | [Immutable Schedule entries].
///
/// The optional fields come in Wireshark's order (Peer ID, Max Idle Period, Immutable
/// Schedule). NDL Control: b0 Peer ID Present, b1 Immutable Schedule Present, b2 NDC
/// Attribute Present, b3 NDL QoS Attribute Present, b4 Max Idle Period Present, b5 NDL
/// Type (0 S-NDL, 1 P-NDL reserved), b6-7 Setup Reason (0 NDP, 1 FSD using GAS). The raw
/// control is kept; b0, b1 and b4 are written from the optional fields.
public struct NDLAttribute: NANAttributeBody, DataPathSharedFields {
    public static let attributeID = NANAttributeID.ndl
    public static var sharedFields: WritableKeyPath<Self, DataPathHeader<NDLType>> { \.header }

    static let peerIDPresentBit: UInt8 = 0x01
    static let immutableSchedulePresentBit: UInt8 = 0x02
    static let maxIdlePeriodPresentBit: UInt8 = 0x10
    static let presenceBits: UInt8 = peerIDPresentBit | immutableSchedulePresentBit | maxIdlePeriodPresentBit

    public var header: DataPathHeader<NDLType>
    public var ndlControl: UInt8
    public var peerID: UInt8?
    public var maxIdlePeriod: UInt16?
    public var immutableSchedule: [ScheduleEntry]?

    public init(
        dialogToken: UInt8,
        type: NDLType,
        status: DataPathStatus,
        reasonCode: NANReasonCode = .reserved,
        ndlControl: UInt8 = 0,
        peerID: UInt8? = nil,
        maxIdlePeriod: UInt16? = nil,
        immutableSchedule: [ScheduleEntry]? = nil
    ) {
        header = DataPathHeader(dialogToken: dialogToken, type: type, status: status, reasonCode: reasonCode)
        self.ndlControl = ndlControl
        self.peerID = peerID
        self.maxIdlePeriod = maxIdlePeriod
        self.immutableSchedule = immutableSchedule
        self.ndlControl = effectiveControl
    }

    /// The control as written: the presence bits follow the optional fields.
    public var effectiveControl: UInt8 {
        var control = ndlControl & ~Self.presenceBits
        if peerID != nil { control |= Self.peerIDPresentBit }
        if immutableSchedule != nil { control |= Self.immutableSchedulePresentBit }
        if maxIdlePeriod != nil { control |= Self.maxIdlePeriodPresentBit }
        return control
    }

    public var ndcAttributePresent: Bool { ndlControl & 0x04 != 0 }
    public var ndlQoSAttributePresent: Bool { ndlControl & 0x08 != 0 }
    /// b5: false = S-NDL, true = P-NDL (reserved).
    public var isPagingNDL: Bool { ndlControl & 0x20 != 0 }
    /// b6-7: 0 NDP, 1 FSD using GAS, 2-3 reserved.
    public var setupReason: UInt8 { ndlControl >> 6 }

    public init(from reader: inout WireReader) throws(WireError) {
        header = try DataPathHeader(from: &reader)
        ndlControl = try reader.readUInt8("NDL Control")
        peerID = ndlControl & Self.peerIDPresentBit != 0 ? try reader.readUInt8("NDL Peer ID") : nil
        maxIdlePeriod =
            ndlControl & Self.maxIdlePeriodPresentBit != 0 ? try reader.readUInt16LE("Max Idle Period") : nil
        if ndlControl & Self.immutableSchedulePresentBit != 0 {
            var entries: [ScheduleEntry] = []
            while !reader.isAtEnd { entries.append(try ScheduleEntry(from: &reader)) }
            immutableSchedule = entries
        } else {
            immutableSchedule = nil
        }
    }

    public func write(to writer: inout WireWriter) {
        header.write(to: &writer)
        writer.write(effectiveControl)
        if let peerID { writer.write(peerID) }
        if let maxIdlePeriod { writer.writeUInt16LE(maxIdlePeriod) }
        for entry in immutableSchedule ?? [] { entry.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        let control = effectiveControl
        let setupReasonName = ["NDP", "FSD using GAS", "Reserved", "Reserved"][Int(control >> 6)]
        var fields = header.decodedFields
        fields += [
            DecodedField("ndlControl", "NDL Control", .bits(UInt64(control), digits: 2)),
            DecodedField("peerIDPresent", "NDL Peer ID Present", .flag(peerID != nil)),
            DecodedField("immutableSchedulePresent", "Immutable Schedule Present", .flag(immutableSchedule != nil)),
            DecodedField("ndcAttributePresent", "NDC Attribute Present", .flag(ndcAttributePresent)),
            DecodedField("ndlQoSAttributePresent", "NDL QoS Attribute Present", .flag(ndlQoSAttributePresent)),
            DecodedField("maxIdlePeriodPresent", "Max Idle Period Present", .flag(maxIdlePeriod != nil)),
            DecodedField(
                "ndlType",
                "NDL Type",
                .named(isPagingNDL ? 1 : 0, isPagingNDL ? "P-NDL (reserved)" : "S-NDL")
            ),
            DecodedField("setupReason", "NDL Setup Reason", .named(UInt64(control >> 6), setupReasonName)),
        ]
        if let peerID { fields.append(DecodedField("ndlPeerID", "NDL Peer ID", .unsigned(UInt64(peerID)))) }
        if let maxIdlePeriod {
            fields.append(DecodedField("maxIdlePeriod", "Max Idle Period", .unsigned(UInt64(maxIdlePeriod))))
        }
        if let immutableSchedule {
            fields.append(
                DecodedField(
                    "immutableSchedule",
                    "Immutable Schedule",
                    .list(immutableSchedule.map { .fields($0.decodedFields) })
                )
            )
        }
        return fields
    }
}

/// The Type nibble (b0-3 of Type and Status) of the NDL attribute
/// (nan-wire-reference.md 2.9): 0 Request, 1 Response, 2 Confirm; other codes are
/// reserved and kept.
public enum NDLType: DataPathType {
    case request
    case response
    case confirm
    /// A reserved code (3...15).
    case reserved(UInt8)

    public init(code: UInt8) {
        switch code & 0x0F {
        case 0: self = .request
        case 1: self = .response
        case 2: self = .confirm
        default: self = .reserved(code & 0x0F)
        }
    }

    public var code: UInt8 {
        switch self {
        case .request: 0
        case .response: 1
        case .confirm: 2
        case .reserved(let code): code & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .request: "Request"
        case .response: "Response"
        case .confirm: "Confirm"
        case .reserved: "Reserved"
        }
    }
}

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

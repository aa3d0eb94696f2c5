/// A NAN Reason Code (nan-wire-reference.md 2.11, hostap `enum nan_reason` "Table 43").
/// An open set: unknown codes are kept and named "Reserved".
public struct NANReasonCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let reserved = Self(0)
    public static let unspecifiedReason = Self(1)
    public static let resourceLimitation = Self(2)
    public static let invalidParameters = Self(3)
    public static let ftmParametersIncapable = Self(4)
    public static let noMovement = Self(5)
    public static let invalidAvailability = Self(6)
    public static let immutableUnacceptable = Self(7)
    public static let securityPolicy = Self(8)
    public static let qosUnacceptable = Self(9)
    public static let ndpRejected = Self(10)
    public static let ndlUnacceptable = Self(11)
    public static let rangingScheduleUnacceptable = Self(12)
    /// hostap only; Wireshark marks 13 and up reserved.
    public static let pairBootstrapRejected = Self(13)

    public var name: String {
        switch rawValue {
        case 1: "UNSPECIFIED_REASON"
        case 2: "RESOURCE_LIMITATION"
        case 3: "INVALID_PARAMETERS"
        case 4: "FTM_PARAMETERS_INCAPABLE"
        case 5: "NO_MOVEMENT"
        case 6: "INVALID_AVAILABILITY"
        case 7: "IMMUTABLE_UNACCEPTABLE"
        case 8: "SECURITY_POLICY"
        case 9: "QoS_UNACCEPTABLE"
        case 10: "NDP_REJECTED"
        case 11: "NDL_UNACCEPTABLE"
        case 12: "RANGING_SCHEDULE_UNACCEPTABLE"
        case 13: "PAIR_BOOTSTRAP_REJECTED"
        default: "Reserved"
        }
    }

    public var decodedValue: DecodedValue { .named(UInt64(rawValue), name) }
}

/// `Dialog Token (1) | Type and Status (1) | Reason Code (1)`: the octets that open the NDL
/// attribute (nan-wire-reference.md 2.9) and the NDP and NDPE attributes (2.10). Type is
/// b0-3 and Status b4-7 of Type and Status.
public struct DataPathHeader<DataPathTypeCode: DataPathType>: WireCodable, WireDescribable {
    public var dialogToken: UInt8
    public var type: DataPathTypeCode
    public var status: DataPathStatus
    public var reasonCode: NANReasonCode

    public init(dialogToken: UInt8, type: DataPathTypeCode, status: DataPathStatus, reasonCode: NANReasonCode) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
    }

    public var typeAndStatus: UInt8 { type.code | status.code << 4 }

    public init(from reader: inout WireReader) throws(WireError) {
        dialogToken = try reader.readUInt8("Dialog Token")
        let typeAndStatus = try reader.readUInt8("Type and Status")
        type = DataPathTypeCode(code: typeAndStatus)
        status = DataPathStatus(code: typeAndStatus >> 4)
        reasonCode = NANReasonCode(try reader.readUInt8("Reason Code"))
    }

    public func write(to writer: inout WireWriter) {
        writer.write(dialogToken)
        writer.write(typeAndStatus)
        writer.write(reasonCode.rawValue)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("dialogToken", "Dialog Token", .unsigned(UInt64(dialogToken))),
            DecodedField("typeAndStatus", "Type and Status", .bits(UInt64(typeAndStatus), digits: 2)),
            DecodedField("type", "Type", type.decodedValue),
            DecodedField("status", "Status", status.decodedValue),
            DecodedField("reasonCode", "Reason Code", reasonCode.decodedValue),
        ]
    }
}

/// The Type nibble (b0-3 of Type and Status) of a data-path attribute: ``NDLType`` (NDL,
/// nan-wire-reference.md 2.9) or ``NDPType`` (NDP and NDPE, 2.10). The two attributes give
/// the codes different meanings, so each has its own enumeration; ``DataPathHeader`` packs
/// either one with the Status nibble.
public protocol DataPathType: Hashable, Sendable {
    /// Reads the 4-bit code; higher bits are ignored.
    init(code: UInt8)
    /// The 4-bit code.
    var code: UInt8 { get }
    var name: String { get }
}

extension DataPathType {
    public var decodedValue: DecodedValue { .named(UInt64(code), name) }
}

/// The Status nibble (b4-7 of Type and Status) of the NDP, NDPE and NDL attributes
/// (nan-wire-reference.md 2.9, 2.10): 0 Continued, 1 Accepted, 2 Rejected; other codes
/// are reserved and kept.
public enum DataPathStatus: Hashable, Sendable {
    case continued
    case accepted
    case rejected
    /// A reserved code (3...15).
    case reserved(UInt8)

    /// Reads the 4-bit code; higher bits are ignored.
    public init(code: UInt8) {
        switch code & 0x0F {
        case 0: self = .continued
        case 1: self = .accepted
        case 2: self = .rejected
        default: self = .reserved(code & 0x0F)
        }
    }

    public var code: UInt8 {
        switch self {
        case .continued: 0
        case .accepted: 1
        case .rejected: 2
        case .reserved(let code): code & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .continued: "Continued"
        case .accepted: "Accepted"
        case .rejected: "Rejected"
        case .reserved: "Reserved"
        }
    }

    public var decodedValue: DecodedValue { .named(UInt64(code), name) }
}

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

/// A data-path attribute that keeps the fields it shares with another attribute in one
/// value (``DataPathHeader``, ``NDPCommonFields``). The shared value's members read and
/// write as the attribute's own (`ndp.dialogToken`, `ndpe.responderNDI = ...`), so the
/// attributes keep their flat field names.
@dynamicMemberLookup
public protocol DataPathSharedFields {
    associatedtype SharedFields
    static var sharedFields: WritableKeyPath<Self, SharedFields> { get }
}

extension DataPathSharedFields {
    public subscript<Value>(dynamicMember member: WritableKeyPath<SharedFields, Value>) -> Value {
        get { self[keyPath: Self.sharedFields][keyPath: member] }
        set { self[keyPath: Self.sharedFields][keyPath: member] = newValue }
    }

    public subscript<Value>(dynamicMember member: KeyPath<SharedFields, Value>) -> Value {
        self[keyPath: Self.sharedFields][keyPath: member]
    }
}

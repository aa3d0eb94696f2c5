import AwareCore

/// NDP attribute (0x10) (nan-wire-reference.md 2.10; hostap `struct ieee80211_ndp`): the
/// fields it shares with NDPE (``NDPCommonFields``), then
/// [NDP Specific Info (the remaining octets)] if NDP Control b5.
///
/// The raw control is kept; b3, b4 and b5 are written from the optional fields.
public struct NDPAttribute: NANAttributeBody, DataPathSharedFields {
    public static let attributeID = NANAttributeID.ndp
    public static var sharedFields: WritableKeyPath<Self, NDPCommonFields> { \.common }

    public var common: NDPCommonFields
    public var ndpSpecificInfo: [UInt8]?

    public init(
        dialogToken: UInt8,
        type: NDPType,
        status: DataPathStatus,
        reasonCode: NANReasonCode = .reserved,
        initiatorNDI: MACAddress,
        ndpID: UInt8,
        ndpControl: NDPControl = [],
        publishID: UInt8? = nil,
        responderNDI: MACAddress? = nil,
        ndpSpecificInfo: [UInt8]? = nil
    ) {
        let common = NDPCommonFields(
            dialogToken: dialogToken,
            type: type,
            status: status,
            reasonCode: reasonCode,
            initiatorNDI: initiatorNDI,
            ndpID: ndpID,
            ndpControl: ndpControl,
            publishID: publishID,
            responderNDI: responderNDI
        )
        self.init(common: common, ndpSpecificInfo: ndpSpecificInfo)
    }

    public init(common: NDPCommonFields, ndpSpecificInfo: [UInt8]? = nil) {
        self.common = common
        self.ndpSpecificInfo = ndpSpecificInfo
        self.common.ndpControl = effectiveControl
    }

    /// The control as written: the presence bits follow the optional fields.
    public var effectiveControl: NDPControl {
        var control = common.effectiveControl.subtracting(.ndpSpecificInfoPresent)
        if ndpSpecificInfo != nil { control.insert(.ndpSpecificInfoPresent) }
        return control
    }

    public init(from reader: inout WireReader) throws(WireError) {
        common = try NDPCommonFields(from: &reader)
        ndpSpecificInfo = common.ndpControl.contains(.ndpSpecificInfoPresent) ? reader.readRemaining() : nil
    }

    public func write(to writer: inout WireWriter) {
        common.write(to: &writer, control: effectiveControl)
        if let ndpSpecificInfo { writer.write(ndpSpecificInfo) }
    }

    public var decodedFields: [DecodedField] {
        let bit5 = DecodedField("ndpSpecificInfoPresent", "NDP Specific Info Present", .flag(ndpSpecificInfo != nil))
        var fields = common.decodedFields(control: effectiveControl, bit5: bit5)
        if let ndpSpecificInfo {
            fields.append(DecodedField("ndpSpecificInfo", "NDP Specific Info", .bytes(ndpSpecificInfo)))
        }
        // Android's reading: the NDPE TLVs of its app info (DataPathServiceInfo.swift).
        if let tlvs = ndpSpecificInfoTLVs {
            fields.append(
                DecodedField(
                    "ndpSpecificInfoTLVs",
                    "NDP Specific Info as TLVs",
                    .list(tlvs.map { .fields($0.decodedFields) })
                )
            )
        }
        return fields
    }
}

/// The fields the NDP and NDPE attributes share (nan-wire-reference.md 2.10):
/// Dialog Token (1) | Type and Status (1) | Reason Code (1) | Initiator NDI (6) | NDP ID (1) |
/// NDP Control (1) | [Publish ID (1)] if b3 | [Responder NDI (6)] if b4.
///
/// Presence is decided by the control bits (Wireshark infers Responder NDI from Type and
/// Status instead; the reference says to trust the bit). The raw control is kept; b3 and
/// b4 are written from the optional fields. b5 differs between the two attributes (NDP
/// Specific Info Present in NDP, GTK Required in NDPE), so each attribute settles it.
public struct NDPCommonFields: DataPathSharedFields, Hashable, Sendable {
    public static var sharedFields: WritableKeyPath<Self, DataPathHeader<NDPType>> { \.header }

    static let presenceBits: NDPControl = [.publishIDPresent, .responderNDIPresent]

    public var header: DataPathHeader<NDPType>
    public var initiatorNDI: MACAddress
    public var ndpID: UInt8
    public var ndpControl: NDPControl
    public var publishID: UInt8?
    public var responderNDI: MACAddress?

    public init(
        dialogToken: UInt8,
        type: NDPType,
        status: DataPathStatus,
        reasonCode: NANReasonCode = .reserved,
        initiatorNDI: MACAddress,
        ndpID: UInt8,
        ndpControl: NDPControl = [],
        publishID: UInt8? = nil,
        responderNDI: MACAddress? = nil
    ) {
        header = DataPathHeader(dialogToken: dialogToken, type: type, status: status, reasonCode: reasonCode)
        self.initiatorNDI = initiatorNDI
        self.ndpID = ndpID
        self.ndpControl = ndpControl
        self.publishID = publishID
        self.responderNDI = responderNDI
        self.ndpControl = effectiveControl
    }

    /// The control with b3 and b4 following the optional fields.
    public var effectiveControl: NDPControl {
        var control = ndpControl.subtracting(Self.presenceBits)
        if publishID != nil { control.insert(.publishIDPresent) }
        if responderNDI != nil { control.insert(.responderNDIPresent) }
        return control
    }

    public init(from reader: inout WireReader) throws(WireError) {
        header = try DataPathHeader(from: &reader)
        initiatorNDI = try reader.readMAC("Initiator NDI")
        ndpID = try reader.readUInt8("NDP ID")
        ndpControl = NDPControl(rawValue: try reader.readUInt8("NDP Control"))
        publishID = ndpControl.contains(.publishIDPresent) ? try reader.readUInt8("Publish ID") : nil
        responderNDI = ndpControl.contains(.responderNDIPresent) ? try reader.readMAC("Responder NDI") : nil
    }

    /// Writes the fields with `control` (the attribute's effective control) as NDP Control.
    public func write(to writer: inout WireWriter, control: NDPControl) {
        header.write(to: &writer)
        writer.write(initiatorNDI)
        writer.write(ndpID)
        writer.write(control.rawValue)
        if let publishID { writer.write(publishID) }
        if let responderNDI { writer.write(responderNDI) }
    }

    /// The fields described with `control` as NDP Control; `bit5` describes b5 as the
    /// attribute means it and stands after the other control bits.
    public func decodedFields(control: NDPControl, bit5: DecodedField) -> [DecodedField] {
        var fields = header.decodedFields
        fields += [
            DecodedField("initiatorNDI", "Initiator NDI", .address(initiatorNDI)),
            DecodedField("ndpID", "NDP ID", .unsigned(UInt64(ndpID))),
            DecodedField("ndpControl", "NDP Control", .bits(UInt64(control.rawValue), digits: 2)),
            DecodedField("confirmRequired", "Confirm Required", .flag(control.contains(.confirmRequired))),
            DecodedField("securityPresent", "Security Present", .flag(control.contains(.securityPresent))),
            DecodedField("publishIDPresent", "Publish ID Present", .flag(publishID != nil)),
            DecodedField("responderNDIPresent", "Responder NDI Present", .flag(responderNDI != nil)),
            bit5,
        ]
        if let publishID { fields.append(DecodedField("publishID", "Publish ID", .unsigned(UInt64(publishID)))) }
        if let responderNDI { fields.append(DecodedField("responderNDI", "Responder NDI", .address(responderNDI))) }
        return fields
    }
}

/// NDP Control (1) of the NDP and NDPE attributes (nan-wire-reference.md 2.10; hostap
/// `NAN_NDP_CTRL_*`): b0 Confirm Required, b1 reserved, b2 Security Present, b3 Publish ID
/// Present, b4 Responder NDI Present, b5 NDP Specific Info Present (NDP) or GTK Required
/// (NDPE), b6-7 reserved. Unknown bits are kept in the raw value.
public struct NDPControl: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let confirmRequired = Self(rawValue: 0x01)
    public static let securityPresent = Self(rawValue: 0x04)
    public static let publishIDPresent = Self(rawValue: 0x08)
    public static let responderNDIPresent = Self(rawValue: 0x10)
    /// b5 in the NDP attribute.
    public static let ndpSpecificInfoPresent = Self(rawValue: 0x20)
    /// b5 in the NDPE attribute (the same bit as ``ndpSpecificInfoPresent``).
    public static let gtkRequired = Self(rawValue: 0x20)
}

/// The Type nibble (b0-3 of Type and Status) of the NDP and NDPE attributes
/// (nan-wire-reference.md 2.10): 0 Request, 1 Response, 2 Confirm, 3 Security Install,
/// 4 Terminate; other codes are reserved and kept.
public enum NDPType: DataPathType {
    case request
    case response
    case confirm
    case securityInstall
    case terminate
    /// A reserved code (5...15).
    case reserved(UInt8)

    public init(code: UInt8) {
        switch code & 0x0F {
        case 0: self = .request
        case 1: self = .response
        case 2: self = .confirm
        case 3: self = .securityInstall
        case 4: self = .terminate
        default: self = .reserved(code & 0x0F)
        }
    }

    public var code: UInt8 {
        switch self {
        case .request: 0
        case .response: 1
        case .confirm: 2
        case .securityInstall: 3
        case .terminate: 4
        case .reserved(let code): code & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .request: "Request"
        case .response: "Response"
        case .confirm: "Confirm"
        case .securityInstall: "Security Install"
        case .terminate: "Terminate"
        case .reserved: "Reserved"
        }
    }
}

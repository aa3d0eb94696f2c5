/// NDP attribute (0x10) (nan-wire-reference.md 2.10; hostap `struct ieee80211_ndp`):
/// Dialog Token (1) | Type and Status (1) | Reason Code (1) | Initiator NDI (6) | NDP ID (1) |
/// NDP Control (1) | [Publish ID (1)] if b3 | [Responder NDI (6)] if b4 |
/// [NDP Specific Info (the remaining octets)] if b5.
///
/// Presence is decided by the control bits (Wireshark infers Responder NDI from Type and
/// Status instead; the reference says to trust the bit). The raw control is kept; b3, b4
/// and b5 are written from the optional fields.
public struct NDPAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.ndp

    static let presenceBits: NDPControl = [.publishIDPresent, .responderNDIPresent, .ndpSpecificInfoPresent]

    public var dialogToken: UInt8
    public var type: NDPType
    public var status: DataPathStatus
    public var reasonCode: NANReasonCode
    public var initiatorNDI: MACAddress
    public var ndpID: UInt8
    public var ndpControl: NDPControl
    public var publishID: UInt8?
    public var responderNDI: MACAddress?
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
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
        self.initiatorNDI = initiatorNDI
        self.ndpID = ndpID
        self.ndpControl = ndpControl
        self.publishID = publishID
        self.responderNDI = responderNDI
        self.ndpSpecificInfo = ndpSpecificInfo
        self.ndpControl = effectiveControl
    }

    /// The control as written: the presence bits follow the optional fields.
    public var effectiveControl: NDPControl {
        var control = ndpControl.subtracting(Self.presenceBits)
        if publishID != nil { control.insert(.publishIDPresent) }
        if responderNDI != nil { control.insert(.responderNDIPresent) }
        if ndpSpecificInfo != nil { control.insert(.ndpSpecificInfoPresent) }
        return control
    }

    public var typeAndStatus: UInt8 { type.code | status.code << 4 }

    public init(from reader: inout WireReader) throws(WireError) {
        dialogToken = try reader.readUInt8("Dialog Token")
        let typeAndStatus = try reader.readUInt8("Type and Status")
        type = NDPType(code: typeAndStatus)
        status = DataPathStatus(code: typeAndStatus >> 4)
        reasonCode = NANReasonCode(try reader.readUInt8("Reason Code"))
        initiatorNDI = try reader.readMAC("Initiator NDI")
        ndpID = try reader.readUInt8("NDP ID")
        ndpControl = NDPControl(rawValue: try reader.readUInt8("NDP Control"))
        publishID = ndpControl.contains(.publishIDPresent) ? try reader.readUInt8("Publish ID") : nil
        responderNDI = ndpControl.contains(.responderNDIPresent) ? try reader.readMAC("Responder NDI") : nil
        ndpSpecificInfo = ndpControl.contains(.ndpSpecificInfoPresent) ? reader.readRemaining() : nil
    }

    public func write(to writer: inout WireWriter) {
        writer.write(dialogToken)
        writer.write(typeAndStatus)
        writer.write(reasonCode.rawValue)
        writer.write(initiatorNDI)
        writer.write(ndpID)
        writer.write(effectiveControl.rawValue)
        if let publishID { writer.write(publishID) }
        if let responderNDI { writer.write(responderNDI) }
        if let ndpSpecificInfo { writer.write(ndpSpecificInfo) }
    }

    public var decodedFields: [DecodedField] {
        let control = effectiveControl
        var fields = [
            DecodedField("dialogToken", "Dialog Token", .unsigned(UInt64(dialogToken))),
            DecodedField("typeAndStatus", "Type and Status", .bits(UInt64(typeAndStatus), digits: 2)),
            DecodedField("type", "Type", type.decodedValue),
            DecodedField("status", "Status", status.decodedValue),
            DecodedField("reasonCode", "Reason Code", reasonCode.decodedValue),
            DecodedField("initiatorNDI", "Initiator NDI", .address(initiatorNDI)),
            DecodedField("ndpID", "NDP ID", .unsigned(UInt64(ndpID))),
            DecodedField("ndpControl", "NDP Control", .bits(UInt64(control.rawValue), digits: 2)),
            DecodedField("confirmRequired", "Confirm Required", .flag(control.contains(.confirmRequired))),
            DecodedField("securityPresent", "Security Present", .flag(control.contains(.securityPresent))),
            DecodedField("publishIDPresent", "Publish ID Present", .flag(publishID != nil)),
            DecodedField("responderNDIPresent", "Responder NDI Present", .flag(responderNDI != nil)),
            DecodedField("ndpSpecificInfoPresent", "NDP Specific Info Present", .flag(ndpSpecificInfo != nil)),
        ]
        if let publishID { fields.append(DecodedField("publishID", "Publish ID", .unsigned(UInt64(publishID)))) }
        if let responderNDI { fields.append(DecodedField("responderNDI", "Responder NDI", .address(responderNDI))) }
        if let ndpSpecificInfo {
            fields.append(DecodedField("ndpSpecificInfo", "NDP Specific Info", .bytes(ndpSpecificInfo)))
        }
        return fields
    }
}

/// NDP Extension attribute (NDPE, 0x29) (nan-wire-reference.md 2.10): the NDP attribute's
/// fixed fields and optional Publish ID / Responder NDI, then a list of TLVs that fills the
/// rest of the body. Control b5 means GTK Required here (a plain flag, kept in the raw
/// control); b3 and b4 are written from the optional fields. hostap sends NDPE instead of
/// NDP when the peer's Device Capability has NDPE support (2.6).
public struct NDPExtensionAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.ndpExtension

    static let presenceBits: NDPControl = [.publishIDPresent, .responderNDIPresent]

    public var dialogToken: UInt8
    public var type: NDPType
    public var status: DataPathStatus
    public var reasonCode: NANReasonCode
    public var initiatorNDI: MACAddress
    public var ndpID: UInt8
    public var ndpControl: NDPControl
    public var publishID: UInt8?
    public var responderNDI: MACAddress?
    public var tlvs: [NDPExtensionTLV]

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
        tlvs: [NDPExtensionTLV] = []
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
        self.tlvs = tlvs
        self.ndpControl = effectiveControl
    }

    /// The control as written: the presence bits follow the optional fields.
    public var effectiveControl: NDPControl {
        var control = ndpControl.subtracting(Self.presenceBits)
        if publishID != nil { control.insert(.publishIDPresent) }
        if responderNDI != nil { control.insert(.responderNDIPresent) }
        return control
    }

    public var typeAndStatus: UInt8 { type.code | status.code << 4 }

    /// The Interface Identifier of the first IPv6 link-local TLV.
    public var ipv6InterfaceIdentifier: [UInt8]? {
        for tlv in tlvs {
            if case .ipv6LinkLocal(let interfaceIdentifier) = tlv { return interfaceIdentifier }
        }
        return nil
    }

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
        tlvs = []
        while !reader.isAtEnd { tlvs.append(try NDPExtensionTLV(from: &reader)) }
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
        for tlv in tlvs { tlv.write(to: &writer) }
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
            DecodedField("gtkRequired", "GTK Required", .flag(control.contains(.gtkRequired))),
        ]
        if let publishID { fields.append(DecodedField("publishID", "Publish ID", .unsigned(UInt64(publishID)))) }
        if let responderNDI { fields.append(DecodedField("responderNDI", "Responder NDI", .address(responderNDI))) }
        fields.append(DecodedField("tlvs", "TLVs", .list(tlvs.map { .fields($0.decodedFields) })))
        return fields
    }
}

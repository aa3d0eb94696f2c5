import AwareCore

/// NDP Extension attribute (NDPE, 0x29) (nan-wire-reference.md 2.10): the fields it shares
/// with NDP (``NDPCommonFields``), then a list of TLVs that fills the rest of the body.
/// Control b5 means GTK Required here (a plain flag, kept in the raw control); b3 and b4 are
/// written from the optional fields. hostap sends NDPE instead of NDP when the peer's Device
/// Capability has NDPE support (2.6).
public struct NDPExtensionAttribute: NANAttributeBody, DataPathSharedFields {
    public static let attributeID = NANAttributeID.ndpExtension
    public static var sharedFields: WritableKeyPath<Self, NDPCommonFields> { \.common }

    public var common: NDPCommonFields
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
        self.init(common: common, tlvs: tlvs)
    }

    public init(common: NDPCommonFields, tlvs: [NDPExtensionTLV] = []) {
        self.common = common
        self.tlvs = tlvs
        self.common.ndpControl = common.effectiveControl
    }

    /// The Interface Identifier of the first IPv6 link-local TLV.
    public var ipv6InterfaceIdentifier: [UInt8]? {
        for tlv in tlvs {
            if case .ipv6LinkLocal(let interfaceIdentifier) = tlv { return interfaceIdentifier }
        }
        return nil
    }

    public init(from reader: inout WireReader) throws(WireError) {
        common = try NDPCommonFields(from: &reader)
        tlvs = []
        while !reader.isAtEnd { tlvs.append(try NDPExtensionTLV(from: &reader)) }
    }

    public func write(to writer: inout WireWriter) {
        common.write(to: &writer, control: common.effectiveControl)
        for tlv in tlvs { tlv.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        let control = common.effectiveControl
        let bit5 = DecodedField("gtkRequired", "GTK Required", .flag(control.contains(.gtkRequired)))
        var fields = common.decodedFields(control: control, bit5: bit5)
        fields.append(DecodedField("tlvs", "TLVs", .list(tlvs.map { .fields($0.decodedFields) })))
        return fields
    }
}

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

/// One TLV of the NDP Extension attribute (nan-wire-reference.md 2.10; hostap
/// `enum nan_ndpe_tlv_type`): Type (1) | Length (2, LE) | Value.
/// Type 0 carries an IPv6 link-local Interface Identifier (8 octets); type 1 carries
/// Service Info = OUI (3) | Service Protocol Type (1) | data; other types are kept raw. A Service
/// Info of type 2 names the service's transport (``genericServiceProtocol()``,
/// DataPathServiceInfo.swift).
public enum NDPExtensionTLV: Hashable, Sendable, WireCodable, WireDescribable {
    case ipv6LinkLocal(interfaceIdentifier: [UInt8])
    case serviceInfo(oui: [UInt8], serviceProtocolType: UInt8, data: [UInt8])
    case other(type: UInt8, value: [UInt8])

    public static let ipv6LinkLocalType: UInt8 = 0
    public static let serviceInfoType: UInt8 = 1
    /// hostap `NAN_NDPE_TLV_IPV6_LINK_LOCAL_LEN`.
    public static let interfaceIdentifierLength = 8

    public var type: UInt8 {
        switch self {
        case .ipv6LinkLocal: Self.ipv6LinkLocalType
        case .serviceInfo: Self.serviceInfoType
        case .other(let type, _): type
        }
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let type = try reader.readUInt8("TLV Type")
        let lengthOffset = reader.offset
        let length = Int(try reader.readUInt16LE("TLV Length"))
        var value = try reader.subReader(length: length, field: "TLV Length")
        switch type {
        case Self.ipv6LinkLocalType:
            guard length == Self.interfaceIdentifierLength else {
                throw reader.error(
                    .invalidValue("an IPv6 link-local TLV carries an 8-octet Interface Identifier, not \(length)"),
                    field: "TLV Length",
                    at: lengthOffset
                )
            }
            self = .ipv6LinkLocal(interfaceIdentifier: value.readRemaining())
        case Self.serviceInfoType:
            let oui = try value.readBytes(3, "OUI")
            let protocolType = try value.readUInt8("Service Protocol Type")
            self = .serviceInfo(oui: oui, serviceProtocolType: protocolType, data: value.readRemaining())
        default:
            self = .other(type: type, value: value.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(type)
        writer.withLength16LE { value in
            switch self {
            case .ipv6LinkLocal(let interfaceIdentifier):
                value.write(interfaceIdentifier)
            case .serviceInfo(let oui, let serviceProtocolType, let data):
                value.write(oui)
                value.write(serviceProtocolType)
                value.write(data)
            case .other(_, let bytes):
                value.write(bytes)
            }
        }
    }

    /// Service Protocol Types after the WFA OUI (nan-wire-reference.md 2.5).
    static func serviceProtocolTypeName(_ type: UInt8) -> String {
        switch type {
        case 1: "Bonjour"
        case 2: "Generic Service Protocol"
        case 3: "CSA Matter"
        default: "Reserved"
        }
    }

    /// A Service Info TLV's fields; a well-formed Generic Service Protocol is shown decoded too.
    private func serviceInfoFields(oui: [UInt8], serviceProtocolType: UInt8, data: [UInt8]) -> [DecodedField] {
        var fields = [
            DecodedField("type", "Type", .named(UInt64(type), "Service Info")),
            DecodedField("oui", "OUI", .bytes(oui)),
            DecodedField(
                "serviceProtocolType",
                "Service Protocol Type",
                .named(UInt64(serviceProtocolType), Self.serviceProtocolTypeName(serviceProtocolType))
            ),
            DecodedField("serviceSpecificInfo", "Service Specific Info", .bytes(data)),
        ]
        if let value = try? genericServiceProtocol() {
            fields.append(
                DecodedField("genericServiceProtocol", "Generic Service Protocol", .fields(value.decodedFields))
            )
        }
        return fields
    }

    public var decodedFields: [DecodedField] {
        switch self {
        case .ipv6LinkLocal(let interfaceIdentifier):
            [
                DecodedField("type", "Type", .named(UInt64(type), "IPv6 Link-Local")),
                DecodedField("interfaceIdentifier", "Interface Identifier", .bytes(interfaceIdentifier)),
            ]
        case .serviceInfo(let oui, let serviceProtocolType, let data):
            serviceInfoFields(oui: oui, serviceProtocolType: serviceProtocolType, data: data)
        case .other(let type, let value):
            [
                DecodedField("type", "Type", .named(UInt64(type), "Reserved")),
                DecodedField("raw", "Value", .bytes(value)),
            ]
        }
    }
}

/// A Generic Service Protocol payload (Service Protocol Type 2): the sub-attributes that follow
/// the WFA OUI and the type octet, each `ID (1) | Length (2, LE) | Value`
/// (``GenericServiceProtocolSubAttribute``), filling the rest of the field.
///
/// Where it travels: an NDP responder names its service's transport in the Service Info TLV of
/// its NDPE attribute (``NDPExtensionTLV/serviceInfo(oui:serviceProtocolType:data:)``). Android's
/// publisher writes exactly a Transport Port and then a Transport Protocol sub-attribute there
/// (`WifiAwareDataPathStateManager.NetworkInformationData.buildTlv`), and its subscriber reads
/// them back as `WifiAwareNetworkInfo.getPort` / `getTransportProtocol`. ESP-IDF sends a Transport
/// Port and a Name of Service Instance in the service info of its pairing follow-up
/// (`nan_app/src/nan_pairing.c`).
public struct GenericServiceProtocol: Hashable, Sendable, WireCodable, WireDescribable {
    public static let structureName = "Generic Service Protocol"

    public var subAttributes: [GenericServiceProtocolSubAttribute]

    public init(subAttributes: [GenericServiceProtocolSubAttribute]) {
        self.subAttributes = subAttributes
    }

    /// Android's layout: the port, then the protocol; either left out when nil.
    public init(transportPort: UInt16?, transportProtocol: UInt8?) {
        var subAttributes: [GenericServiceProtocolSubAttribute] = []
        if let transportPort { subAttributes.append(.transportPort(transportPort)) }
        if let transportProtocol { subAttributes.append(.transportProtocol(transportProtocol)) }
        self.init(subAttributes: subAttributes)
    }

    public init(from reader: inout WireReader) throws(WireError) {
        subAttributes = []
        while !reader.isAtEnd { subAttributes.append(try GenericServiceProtocolSubAttribute(from: &reader)) }
    }

    public func write(to writer: inout WireWriter) {
        for subAttribute in subAttributes { subAttribute.write(to: &writer) }
    }

    /// The first Transport Port sub-attribute's port.
    public var transportPort: UInt16? {
        for case .transportPort(let port) in subAttributes { return port }
        return nil
    }

    /// The first Transport Protocol sub-attribute's IANA protocol number.
    public var transportProtocol: UInt8? {
        for case .transportProtocol(let number) in subAttributes { return number }
        return nil
    }

    /// The first Name of Service Instance, as UTF-8 text when it is valid UTF-8.
    public var serviceInstanceName: String? {
        for case .serviceInstanceName(let name) in subAttributes { return String(validating: name, as: UTF8.self) }
        return nil
    }

    /// This payload as Service Info: WFA OUI, Service Protocol Type 2, the sub-attributes.
    public var serviceSpecificInfo: ServiceSpecificInfo {
        ServiceSpecificInfo(protocolType: .generic, info: wireBytes)
    }

    /// This payload as an NDPE Service Info TLV (type 1).
    public var ndpExtensionTLV: NDPExtensionTLV {
        .serviceInfo(
            oui: ServiceSpecificInfo.wfaOUI,
            serviceProtocolType: ServiceProtocolType.generic.rawValue,
            data: wireBytes
        )
    }

    /// The payload of Service Info with this OUI, type and data: nil unless the OUI is the WFA's
    /// and the type is Generic (2); throws when the data is not a sequence of whole sub-attributes.
    /// Offsets in the error count from the first sub-attribute.
    public init?(oui: [UInt8], serviceProtocolType: UInt8, data: [UInt8]) throws(WireError) {
        guard oui == ServiceSpecificInfo.wfaOUI, serviceProtocolType == ServiceProtocolType.generic.rawValue else {
            return nil
        }
        try self.init(wireBytes: data, structure: Self.structureName)
    }

    public var decodedFields: [DecodedField] {
        [DecodedField("subAttributes", "Sub-attributes", .list(subAttributes.map { .fields($0.decodedFields) }))]
    }
}

/// One sub-attribute of a Generic Service Protocol payload (Service Protocol Type 2, after the
/// WFA OUI): ID (1) | Length (2, little-endian) | Value.
///
/// The IDs known from public code: 0x00 Transport Port and 0x01 Transport Protocol (Android
/// `WifiAwareDataPathStateManager.NetworkInformationData`, which cites the NAN specification's
/// tables 127 and 128), 0x03 Name of Service Instance (ESP-IDF `nan_app/src/nan_pairing.c`).
/// No source we have confirms any other ID, so the rest stay raw (``other(id:value:)``) and are
/// described as unknown; Android skips them the same way.
///
/// Byte order of the port: no specification clause we can cite settles it. Both senders we know
/// write it little-endian (Android sets `ByteOrder.LITTLE_ENDIAN` on the whole TLV; ESP-IDF copies
/// a host-order `uint16_t` on a little-endian CPU), so it is read and written little-endian.
public enum GenericServiceProtocolSubAttribute: Hashable, Sendable, WireCodable, WireDescribable {
    /// ID 0x00: the port the service listens on, 2 octets little-endian.
    case transportPort(UInt16)
    /// ID 0x01: the IANA protocol number of the service's transport (6 TCP, 17 UDP), 1 octet.
    case transportProtocol(UInt8)
    /// ID 0x03: the service instance's name, octets as sent (ESP-IDF writes a C string's
    /// characters without the terminating NUL).
    case serviceInstanceName([UInt8])
    /// Any other ID, kept as sent.
    case other(id: UInt8, value: [UInt8])

    public static let transportPortID: UInt8 = 0x00
    public static let transportProtocolID: UInt8 = 0x01
    public static let serviceInstanceNameID: UInt8 = 0x03

    public var id: UInt8 {
        switch self {
        case .transportPort: Self.transportPortID
        case .transportProtocol: Self.transportProtocolID
        case .serviceInstanceName: Self.serviceInstanceNameID
        case .other(let id, _): id
        }
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let id = try reader.readUInt8("Sub-attribute ID")
        let lengthOffset = reader.offset
        let length = Int(try reader.readUInt16LE("Sub-attribute Length"))
        guard length <= reader.remaining else {
            throw reader.error(
                .lengthMismatch(declared: length, actual: reader.remaining),
                field: "Sub-attribute Length",
                at: lengthOffset
            )
        }
        var value = try reader.subReader(length: length, field: "Sub-attribute Length")
        switch id {
        case Self.transportPortID:
            // Android refuses a port sub-attribute of any other length (parseServiceInfoTlv).
            try Self.require(length, 2, "Transport Port", at: lengthOffset, in: value)
            self = .transportPort(try value.readUInt16LE("Transport Port"))
        case Self.transportProtocolID:
            try Self.require(length, 1, "Transport Protocol", at: lengthOffset, in: value)
            self = .transportProtocol(try value.readUInt8("Transport Protocol"))
        case Self.serviceInstanceNameID:
            self = .serviceInstanceName(value.readRemaining())
        default:
            self = .other(id: id, value: value.readRemaining())
        }
    }

    private static func require(
        _ length: Int,
        _ expected: Int,
        _ field: String,
        at offset: Int,
        in reader: WireReader
    ) throws(WireError) {
        guard length == expected else {
            throw reader.error(
                .invalidValue(
                    "a \(field) sub-attribute carries \(expected) octet\(expected == 1 ? "" : "s"), not \(length)"
                ),
                field: field,
                at: offset
            )
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(id)
        writer.withLength16LE { value in
            switch self {
            case .transportPort(let port): value.writeUInt16LE(port)
            case .transportProtocol(let number): value.write(number)
            case .serviceInstanceName(let name): value.write(name)
            case .other(_, let bytes): value.write(bytes)
            }
        }
    }

    /// The IANA names of the protocol numbers a service transport is expected to be.
    static func protocolName(_ number: UInt8) -> String {
        switch ServiceName.TransportProtocol(ipProtocolNumber: number) {
        case .tcp: "TCP"
        case .udp: "UDP"
        case nil: "other protocol"
        }
    }

    public var decodedFields: [DecodedField] {
        switch self {
        case .transportPort(let port):
            [
                DecodedField("id", "ID", .named(UInt64(id), "Transport Port")),
                DecodedField("transportPort", "Transport Port", .unsigned(UInt64(port))),
            ]
        case .transportProtocol(let number):
            [
                DecodedField("id", "ID", .named(UInt64(id), "Transport Protocol")),
                DecodedField(
                    "transportProtocol",
                    "Transport Protocol",
                    .named(UInt64(number), Self.protocolName(number))
                ),
            ]
        case .serviceInstanceName(let name):
            [
                DecodedField("id", "ID", .named(UInt64(id), "Name of Service Instance")),
                DecodedField(
                    "serviceInstanceName",
                    "Name of Service Instance",
                    String(validating: name, as: UTF8.self).map { .text($0) } ?? .bytes(name)
                ),
            ]
        case .other(let id, let value):
            [
                DecodedField("id", "ID", .named(UInt64(id), "Unknown")),
                DecodedField("raw", "Value", .bytes(value)),
            ]
        }
    }
}

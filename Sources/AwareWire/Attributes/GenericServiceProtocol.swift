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

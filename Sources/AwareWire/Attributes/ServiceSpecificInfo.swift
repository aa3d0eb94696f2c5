/// Service Specific Info as the SDEA (and NDPE) carry it: `OUI (3) | Service Protocol Type (1) |
/// service-specific info` (nan-wire-reference.md 2.5). hostap writes OUI 50-6F-9A; any OUI is kept.
public struct ServiceSpecificInfo: Hashable, Sendable {
    /// The Wi-Fi Alliance OUI that hostap writes.
    public static let wfaOUI: [UInt8] = [0x50, 0x6F, 0x9A]

    /// Three octets, network order.
    public let oui: [UInt8]
    public var protocolType: ServiceProtocolType
    public var info: [UInt8]

    /// `oui` must be three octets (a programming error otherwise).
    public init(oui: [UInt8] = wfaOUI, protocolType: ServiceProtocolType, info: [UInt8]) {
        precondition(oui.count == 3, "an OUI is three octets")
        self.oui = oui
        self.protocolType = protocolType
        self.info = info
    }

    /// A Bonjour SSI carrying `txtRecord`, as hostap publishes the pairing TXT keys.
    public init(bonjour txtRecord: DNSSDTXTRecord) {
        self.init(protocolType: .bonjour, info: txtRecord.wireBytes)
    }

    /// The info as a DNS-SD TXT record when the protocol type is Bonjour and it parses.
    public var txtRecord: DNSSDTXTRecord? {
        guard protocolType == .bonjour else { return nil }
        return try? DNSSDTXTRecord(wireBytes: info, structure: "DNS-SD TXT record")
    }
}

extension ServiceSpecificInfo: WireDescribable {
    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("oui", "OUI", .bytes(oui)),
            DecodedField(
                "serviceProtocolType",
                "Service Protocol Type",
                .named(UInt64(protocolType.rawValue), protocolType.name)
            ),
            DecodedField("serviceSpecificInfo", "Service Specific Info", .bytes(info)),
        ]
        if let txtRecord {
            fields.append(DecodedField("txtRecord", "DNS-SD TXT Record", .fields(txtRecord.decodedFields)))
        }
        // ESP-IDF's pairing follow-up carries a Generic Service Protocol here (nan_pairing.c).
        if protocolType == .generic,
            let value = try? GenericServiceProtocol(wireBytes: info, structure: GenericServiceProtocol.structureName)
        {
            fields.append(
                DecodedField("genericServiceProtocol", "Generic Service Protocol", .fields(value.decodedFields))
            )
        }
        return fields
    }
}

/// Service Protocol Type: the octet after the WFA OUI in SDEA Service Info and NDPE Service Info
/// (nan-wire-reference.md 2.5; hostap `enum nan_service_protocol_type`, ESP-IDF
/// `wifi_nan_svc_proto_t`). An open set: other values are kept, not rejected.
public struct ServiceProtocolType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The payload is a DNS-SD TXT record (``DNSSDTXTRecord``).
    public static let bonjour = Self(rawValue: 1)
    /// Generic Service Protocol: sub-attributes `ID (1) | Length (2, LE) | Value`.
    public static let generic = Self(rawValue: 2)
    public static let csaMatter = Self(rawValue: 3)

    public var name: String {
        switch rawValue {
        case 1: "Bonjour"
        case 2: "Generic"
        case 3: "CSA Matter"
        default: "Reserved"
        }
    }

    public var description: String { "\(rawValue) (\(name))" }
}

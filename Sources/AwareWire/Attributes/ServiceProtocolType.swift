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

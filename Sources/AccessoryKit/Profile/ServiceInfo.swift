import AwareCore
import AwareWire

/// The service-specific info a publish carries: DNS-SD TXT entries (sent after the pairing TXT
/// entries), or raw text, or raw octets. Exactly one is set.
public struct ServiceInfo: Codable, Hashable, Sendable {
    /// Extra TXT entries; sent sorted by key after `vendorName`, `modelName`, `pairingName`.
    public var txt: [String: String]?
    public var text: String?
    /// Lower- or upper-case hex digits.
    public var hex: String?

    public init(txt: [String: String]? = nil, text: String? = nil, hex: String? = nil) {
        self.txt = txt
        self.text = text
        self.hex = hex
    }

    /// The octets of a `text` or `hex` service info; nil for TXT, which needs the device identity.
    public var rawOctets: [UInt8]? {
        if let text { return Array(text.utf8) }
        if let hex { return HexString.decode(hex) }
        return nil
    }

    /// The extra TXT entries in the order they are sent.
    public var sortedTXTEntries: [(key: String, value: String)] {
        (txt ?? [:]).sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }
}

import AwareCore
import AwareWire

/// A shared key for data paths with peers that did not pair (NCS-SK, CSID 1 and 2,
/// nan-wire-reference.md 4.2): a non-Apple profile may offer one next to, or instead of, the
/// keys from pairing. The phone never uses it (apple-peer-model.md 5.17).
public struct DatapathSharedKey: Codable, Hashable, Sendable {
    public enum Secret: Hashable, Sendable {
        /// ND-PMK = PBKDF2(passphrase, salt with the service ID and publisher NMI).
        case passphrase(String)
        /// The 32-octet PMK itself.
        case pmk([UInt8])
    }

    /// NCS-SK-128 (CSID 1) or NCS-SK-256 (CSID 2).
    public enum Suite: String, Codable, Hashable, Sendable, CaseIterable {
        case sk128 = "NCS-SK-128"
        case sk256 = "NCS-SK-256"

        public var csid: UInt8 { self == .sk128 ? 1 : 2 }
    }

    public var secret: Secret
    public var suite: Suite

    public init(secret: Secret, suite: Suite = .sk128) {
        self.secret = secret
        self.suite = suite
    }

    enum CodingKeys: String, CodingKey {
        case passphrase
        case pmk
        case suite
    }

    /// The profile's own form (`{"passphrase": ...}` or `{"pmk": "64 hex digits"}`, and `suite`),
    /// so that a normalized profile loads back through the validator unchanged.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        suite = try container.decodeIfPresent(Suite.self, forKey: .suite) ?? .sk128
        if let text = try container.decodeIfPresent(String.self, forKey: .passphrase) {
            secret = .passphrase(text)
        } else {
            let hex = try container.decode(String.self, forKey: .pmk)
            guard let octets = HexString.decode(hex), octets.count == 32 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .pmk,
                    in: container,
                    debugDescription: "pmk must be 64 hex digits"
                )
            }
            secret = .pmk(octets)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch secret {
        case .passphrase(let text): try container.encode(text, forKey: .passphrase)
        case .pmk(let octets): try container.encode(HexString.encode(octets), forKey: .pmk)
        }
        try container.encode(suite, forKey: .suite)
    }
}

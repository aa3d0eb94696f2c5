/// A shared key for data paths with peers that did not pair (NCS-SK, CSID 1 and 2,
/// nan-wire-reference.md 4.2): a non-Apple profile may offer one next to, or instead of, the
/// keys from pairing. The phone never uses it (apple-peer-model.md 5.17).
public struct DatapathSharedKey: Codable, Hashable, Sendable {
    public enum Secret: Codable, Hashable, Sendable {
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
}

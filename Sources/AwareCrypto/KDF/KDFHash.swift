import Crypto

/// The hash under an IEEE 802.11 KDF, an HMAC-based MIC or a digest in the NAN key schedule.
public enum KDFHash: Hashable, Sendable, CaseIterable {
    case sha256
    case sha384

    /// Digest (and HMAC) output length in octets.
    public var outputLength: Int {
        switch self {
        case .sha256: return 32
        case .sha384: return 48
        }
    }

    /// HMAC over the concatenation of `parts`.
    public func hmac(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        hmac(key: key, parts: parts)
    }

    public func hmac(key: [UInt8], parts: [[UInt8]]) -> [UInt8] {
        let symmetricKey = SymmetricKey(data: key)
        switch self {
        case .sha256:
            var mac = HMAC<SHA256>(key: symmetricKey)
            for part in parts { mac.update(data: part) }
            return Array(mac.finalize())
        case .sha384:
            var mac = HMAC<SHA384>(key: symmetricKey)
            for part in parts { mac.update(data: part) }
            return Array(mac.finalize())
        }
    }

    /// Plain digest of `data`.
    public func digest(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        }
    }
}

/// Why a key derivation, key wrap or MIC check refused its input.
///
/// `CryptoError` belongs to the elliptic-curve layer; the symmetric key schedule has failure
/// modes of its own (a failed integrity check, malformed key data), hence a separate type.
public enum KeyDerivationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `field` must be exactly `expected` octets long but is `actual`.
    case invalidLength(field: String, expected: Int, actual: Int)
    /// `field` must be at least `minimum` octets long but is `actual`.
    case tooShort(field: String, minimum: Int, actual: Int)
    /// `field` must be a multiple of `multiple` octets long but is `actual`.
    case notAMultiple(field: String, multiple: Int, actual: Int)
    /// A requested output length is zero or beyond what the construction can produce.
    case outputLengthOutOfRange(operation: String, length: Int)
    /// AES key unwrap found an integrity check value other than A6A6A6A6A6A6A6A6 (RFC 3394 2.2.3).
    case integrityCheckFailed
    /// A received MIC or tag does not match the one computed over the same input.
    case verificationFailed(what: String)
    /// Key data does not follow the KDE layout of nan-wire-reference.md 3.6.
    case malformedKeyData(reason: String)
    /// The cipher suite has no key schedule in the context it was used in.
    case unsupportedCipherSuite(csid: UInt8)

    public var description: String {
        switch self {
        case .invalidLength(let field, let expected, let actual):
            return "\(field): expected \(expected) octets, got \(actual)"
        case .tooShort(let field, let minimum, let actual):
            return "\(field): expected at least \(minimum) octets, got \(actual)"
        case .notAMultiple(let field, let multiple, let actual):
            return "\(field): length \(actual) is not a multiple of \(multiple)"
        case .outputLengthOutOfRange(let operation, let length):
            return "\(operation): output length \(length) is out of range"
        case .integrityCheckFailed:
            return "AES key unwrap: integrity check failed (wrong key or tampered data)"
        case .verificationFailed(let what):
            return "\(what) does not verify"
        case .malformedKeyData(let reason):
            return "key data: \(reason)"
        case .unsupportedCipherSuite(let csid):
            return "cipher suite \(csid) is not supported here"
        }
    }

    static func requireLength(_ bytes: [UInt8], _ expected: Int, _ field: String) throws(KeyDerivationError) {
        guard bytes.count == expected else {
            throw .invalidLength(field: field, expected: expected, actual: bytes.count)
        }
    }
}

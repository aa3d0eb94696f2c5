import Crypto

/// The hash SAE uses with a group: SHA-256 for group 19 and SHA-384 for group 20, the
/// "hash algorithm determined by the length of the prime" of IEEE 802.11-2020 12.4.2
/// (Table 12-1) that H2E, the key derivation and the confirm all follow
/// (nan-wire-reference.md 3.4).
enum SAEHash: Sendable {
    /// The same hash for the shared IEEE 802.11 KDF.
    var kdfHash: KDFHash {
        switch self {
        case .sha256: .sha256
        case .sha384: .sha384
        }
    }

    case sha256
    case sha384

    init(_ curve: EllipticCurve) {
        switch curve {
        case .p256: self = .sha256
        case .p384: self = .sha384
        }
    }

    /// Octets of one digest: also the length of the KCK and of the confirm.
    var length: Int {
        switch self {
        case .sha256: return SHA256.byteCount
        case .sha384: return SHA384.byteCount
        }
    }

    /// HMAC-Hash(`key`, the concatenation of `parts`).
    func hmac(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        switch self {
        case .sha256: return Self.hmac(SHA256.self, key: key, parts)
        case .sha384: return Self.hmac(SHA384.self, key: key, parts)
        }
    }

    /// HKDF-Extract(salt, IKM) (RFC 5869 2.2).
    func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: return Self.extract(SHA256.self, salt: salt, inputKeyMaterial: inputKeyMaterial)
        case .sha384: return Self.extract(SHA384.self, salt: salt, inputKeyMaterial: inputKeyMaterial)
        }
    }

    /// HKDF-Expand(PRK, info, L) (RFC 5869 2.3).
    func expand(pseudoRandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        switch self {
        case .sha256: return Self.expand(SHA256.self, pseudoRandomKey, info, length)
        case .sha384: return Self.expand(SHA384.self, pseudoRandomKey, info, length)
        }
    }

    private static func hmac<H: HashFunction>(_: H.Type, key: [UInt8], _ parts: [[UInt8]]) -> [UInt8] {
        var code = HMAC<H>(key: SymmetricKey(data: key))
        for part in parts { code.update(data: part) }
        return Array(code.finalize())
    }

    private static func extract<H: HashFunction>(
        _: H.Type,
        salt: [UInt8],
        inputKeyMaterial: [UInt8]
    ) -> [UInt8] {
        Array(HKDF<H>.extract(inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: salt))
    }

    private static func expand<H: HashFunction>(
        _: H.Type,
        _ pseudoRandomKey: [UInt8],
        _ info: [UInt8],
        _ length: Int
    ) -> [UInt8] {
        HKDF<H>.expand(pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: length)
            .withUnsafeBytes { Array($0) }
    }
}

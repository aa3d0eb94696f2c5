import Crypto
import Foundation

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

/// The IEEE 802.11 key derivation function KDF-Hash-Length (IEEE Std 802.11-2020 12.7.1.6.2).
///
/// `result = HMAC(K, i || label || context || Length) || ...` for i = 1, 2, ..., with i and
/// Length (in bits) as little-endian 16-bit integers, truncated to the requested length
/// (nan-wire-reference.md 3.4.2; the same PRF as hostap's sha256_prf / sha384_prf).
public enum IEEE80211KDF {
    /// Derives `length` octets. `length` must be 1...8191 so that the bit count fits 16 bits.
    public static func derive(
        hash: KDFHash,
        key: [UInt8],
        label: String,
        context: [UInt8],
        length: Int
    ) throws(KeyDerivationError) -> [UInt8] {
        guard length > 0, length * 8 <= Int(UInt16.max) else {
            throw .outputLengthOutOfRange(operation: "KDF-\(hash)", length: length)
        }
        let bits = UInt16(length * 8)
        let lengthField = [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)]
        let labelBytes = Array(label.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.outputLength)
        var counter: UInt16 = 1
        while output.count < length {
            let counterField = [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
            output += hash.hmac(key: key, counterField, labelBytes, context, lengthField)
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}

/// PBKDF2 (RFC 8018 5.2) with HMAC-SHA-256 or HMAC-SHA-384 as the PRF, for the ND-PMK from a
/// passphrase (nan-wire-reference.md 4.2).
public enum PBKDF2 {
    public static func derive(
        hash: KDFHash,
        password: [UInt8],
        salt: [UInt8],
        iterations: Int,
        length: Int
    ) throws(KeyDerivationError) -> [UInt8] {
        guard iterations > 0 else { throw .outputLengthOutOfRange(operation: "PBKDF2 iterations", length: iterations) }
        guard length > 0, length <= hash.outputLength * 255 else {
            throw .outputLengthOutOfRange(operation: "PBKDF2", length: length)
        }
        var output: [UInt8] = []
        var blockIndex: UInt32 = 1
        while output.count < length {
            let indexField = [
                UInt8(truncatingIfNeeded: blockIndex >> 24), UInt8(truncatingIfNeeded: blockIndex >> 16),
                UInt8(truncatingIfNeeded: blockIndex >> 8), UInt8(truncatingIfNeeded: blockIndex),
            ]
            var u = hash.hmac(key: password, salt, indexField)
            var block = u
            for _ in 1..<iterations {
                u = hash.hmac(key: password, u)
                for position in block.indices { block[position] ^= u[position] }
            }
            output += block
            blockIndex &+= 1
        }
        return Array(output.prefix(length))
    }
}

/// The infrastructure 4-way-handshake PTK with a KDK (IEEE Std 802.11-2024 12.7.1.3, Annex
/// J.13 "KDK without PASN"): addresses and nonces enter in ascending order, so both ends derive
/// the same keys whoever they are.
public enum PairwiseKeyExpansion {
    public struct Keys: Hashable, Sendable {
        public let kck: [UInt8]
        public let kek: [UInt8]
        public let tk: [UInt8]
        public let kdk: [UInt8]
    }

    /// SHA-256 PTK with KCK 16, KEK 16, TK `tkLength`, KDK `kdkLength` octets.
    public static func derive(
        pmk: [UInt8],
        authenticatorAddress: [UInt8],
        supplicantAddress: [UInt8],
        aNonce: [UInt8],
        sNonce: [UInt8],
        tkLength: Int = 16,
        kdkLength: Int = 32
    ) throws(KeyDerivationError) -> Keys {
        try KeyDerivationError.requireLength(authenticatorAddress, 6, "AA")
        try KeyDerivationError.requireLength(supplicantAddress, 6, "SPA")
        try KeyDerivationError.requireLength(aNonce, 32, "ANonce")
        try KeyDerivationError.requireLength(sNonce, 32, "SNonce")
        let addressesInOrder =
            authenticatorAddress.lexicographicallyPrecedes(supplicantAddress)
            ? authenticatorAddress + supplicantAddress : supplicantAddress + authenticatorAddress
        let noncesInOrder = aNonce.lexicographicallyPrecedes(sNonce) ? aNonce + sNonce : sNonce + aNonce
        let ptk = try IEEE80211KDF.derive(
            hash: .sha256,
            key: pmk,
            label: "Pairwise key expansion",
            context: addressesInOrder + noncesInOrder,
            length: 32 + tkLength + kdkLength
        )
        return Keys(
            kck: Array(ptk[0..<16]),
            kek: Array(ptk[16..<32]),
            tk: Array(ptk[32..<(32 + tkLength)]),
            kdk: Array(ptk[(32 + tkLength)...])
        )
    }
}

/// AES key wrap (RFC 3394) as used for NAN Key Data (nan-wire-reference.md 3.6) and NDP group
/// key KDEs (4.2): the output is 8 octets longer than the input, and unwrap checks the
/// integrity value so that a wrong key or a modified ciphertext is refused.
public enum AESKeyWrap {
    /// Wraps `plaintext` (a multiple of 8 octets, at least 16) under a 16-, 24- or 32-octet KEK.
    public static func wrap(_ plaintext: [UInt8], kek: [UInt8]) throws(KeyDerivationError) -> [UInt8] {
        try validate(kek: kek)
        guard plaintext.count >= 16 else { throw .tooShort(field: "key data", minimum: 16, actual: plaintext.count) }
        guard plaintext.count.isMultiple(of: 8) else {
            throw .notAMultiple(field: "key data", multiple: 8, actual: plaintext.count)
        }
        do {
            return Array(try AES.KeyWrap.wrap(SymmetricKey(data: plaintext), using: SymmetricKey(data: kek)))
        } catch {
            throw .integrityCheckFailed
        }
    }

    /// Unwraps `wrapped` (a multiple of 8 octets, at least 24); throws `.integrityCheckFailed`
    /// when the integrity check value does not come out as A6A6A6A6A6A6A6A6.
    public static func unwrap(_ wrapped: [UInt8], kek: [UInt8]) throws(KeyDerivationError) -> [UInt8] {
        try validate(kek: kek)
        guard wrapped.count >= 24 else {
            throw .tooShort(field: "wrapped key data", minimum: 24, actual: wrapped.count)
        }
        guard wrapped.count.isMultiple(of: 8) else {
            throw .notAMultiple(field: "wrapped key data", multiple: 8, actual: wrapped.count)
        }
        do {
            let key = try AES.KeyWrap.unwrap(wrapped, using: SymmetricKey(data: kek))
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw .integrityCheckFailed
        }
    }

    private static func validate(kek: [UInt8]) throws(KeyDerivationError) {
        guard [16, 24, 32].contains(kek.count) else {
            throw .invalidLength(field: "KEK", expected: kek.count < 24 ? 16 : 32, actual: kek.count)
        }
    }
}

/// Comparisons of secrets (MICs, tags, confirms) whose running time does not depend on where
/// the first differing octet is, so that a forger learns nothing from timing.
public enum ConstantTime {
    /// True when both byte strings are identical. Different lengths compare unequal; the length
    /// itself is not secret.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}

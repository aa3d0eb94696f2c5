import Crypto
import Foundation

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

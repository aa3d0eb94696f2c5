import CMbedCrypto

/// Why a cryptographic operation refused its input or could not complete.
///
/// Every function in AwareCrypto that takes bytes from outside (a peer's element, a scalar
/// from a transcript, a length chosen by a caller) throws one of these instead of trapping.
/// Each case carries enough context to say which value was wrong and why.
public enum CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `field` must be exactly `expected` octets long but is `actual`.
    case invalidLength(field: String, expected: Int, actual: Int)
    /// `field` does not follow its encoding (an unknown SEC 1 point prefix, for example).
    case invalidEncoding(field: String, reason: String)
    /// A coordinate is not an element of the prime field: it is greater than or equal to p.
    case coordinateOutOfRange(field: String, curve: EllipticCurve)
    /// The coordinates satisfy no point of the curve (for a compressed point: x³ + ax + b
    /// has no square root modulo p).
    case pointNotOnCurve(curve: EllipticCurve)
    /// The operation produced, or was handed, the point at infinity where it needs a
    /// point with coordinates.
    case pointAtInfinity(operation: String)
    /// A scalar lies outside the range the operation accepts.
    case scalarOutOfRange(field: String, reason: String)
    /// Two values of different curves were combined.
    case curveMismatch(expected: EllipticCurve, actual: EllipticCurve)
    /// A number does not fit the fixed width it has to be written in.
    case valueTooLarge(field: String, length: Int)
    /// A number that has to be non-negative (to be written as octets, or as a modulus) is not.
    case negativeValue(field: String)
    /// A modulus or divisor is zero or otherwise unusable.
    case invalidModulus(operation: String)
    /// The value has no inverse modulo the given modulus.
    case notInvertible(operation: String)
    /// A range to draw a random number from is empty.
    case emptyRange(operation: String)
    /// The random source did not yield an acceptable value within the attempts mbedTLS
    /// allows (a stuck or hostile generator).
    case randomSourceExhausted(operation: String)
    /// mbedTLS reported an error that none of the cases above describes.
    case library(function: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .invalidLength(let field, let expected, let actual):
            return "\(field): expected \(expected) octets, got \(actual)"
        case .invalidEncoding(let field, let reason):
            return "\(field): \(reason)"
        case .coordinateOutOfRange(let field, let curve):
            return "\(field): coordinate is not below the field prime p of \(curve)"
        case .pointNotOnCurve(let curve):
            return "the point is not on \(curve)"
        case .pointAtInfinity(let operation):
            return "\(operation): the point at infinity has no coordinates"
        case .scalarOutOfRange(let field, let reason):
            return "\(field): \(reason)"
        case .curveMismatch(let expected, let actual):
            return "a value of \(actual) was combined with one of \(expected)"
        case .valueTooLarge(let field, let length):
            return "\(field): the value does not fit in \(length) octets"
        case .negativeValue(let field):
            return "\(field): the value is negative"
        case .invalidModulus(let operation):
            return "\(operation): the modulus is zero or negative"
        case .notInvertible(let operation):
            return "\(operation): the value has no inverse for this modulus"
        case .emptyRange(let operation):
            return "\(operation): the range is empty"
        case .randomSourceExhausted(let operation):
            return "\(operation): the random source gave no acceptable value"
        case .library(let function, let code, let message):
            return "\(function) failed with mbedTLS error -0x\(String(-Int(code), radix: 16)): \(message)"
        }
    }
}

/// Turns mbedTLS status codes into `CryptoError`.
///
/// `MBEDTLS_MPI_CHK` is a goto macro that Swift cannot import (platform-notes.md 3.3), so every
/// call site checks its `Int32` result through here instead.
enum MbedTLSStatus {
    static func check(_ code: Int32, _ function: String) throws(CryptoError) {
        guard code != 0 else { return }
        throw CryptoError.library(function: function, code: code, message: message(for: code))
    }

    static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 160)
        let count = buffer.count
        buffer.withUnsafeMutableBufferPointer { mbedtls_strerror(code, $0.baseAddress, count) }
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self)
    }
}

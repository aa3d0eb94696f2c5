import CMbedCrypto

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

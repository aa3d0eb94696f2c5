import CMbedCrypto

/// The two authenticated ciphers behind CCMP and GCMP, through mbedTLS 2.28 (the MIC check
/// is mbedTLS's own, which compares in constant time).
///
/// CCM with M = 8 (8-octet MIC) and L = 2 (13-octet nonce) for CCMP-128 (12.5.3.3.1); GCM
/// with a 12-octet nonce and a 16-octet tag for GCMP (12.5.5.3.1). The AES key length
/// follows the key, so GCMP-128 (the 802.11ad vector) runs through the same code.
enum FrameAEAD {
    enum Mode {
        case ccm
        case gcm

        var tagLength: Int {
            switch self {
            case .ccm: return 8
            case .gcm: return 16
            }
        }
    }

    static func seal(
        _ mode: Mode,
        key: [UInt8],
        nonce: [UInt8],
        aad: [UInt8],
        plaintext: [UInt8]
    ) throws(FrameProtectionError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        var output = [UInt8](repeating: 0, count: plaintext.count)
        let tagLength = mode.tagLength
        var tag = [UInt8](repeating: 0, count: tagLength)
        let code = withKeyedContext(mode, key: key) { context in
            switch context {
            case .ccm(let ccm):
                return mbedtls_ccm_encrypt_and_tag(
                    ccm,
                    plaintext.count,
                    nonce,
                    nonce.count,
                    aad,
                    aad.count,
                    plaintext,
                    &output,
                    &tag,
                    tagLength
                )
            case .gcm(let gcm):
                return mbedtls_gcm_crypt_and_tag(
                    gcm,
                    MBEDTLS_GCM_ENCRYPT,
                    plaintext.count,
                    nonce,
                    nonce.count,
                    aad,
                    aad.count,
                    plaintext,
                    &output,
                    tagLength,
                    &tag
                )
            }
        }
        try check(code, mode == .ccm ? "mbedtls_ccm_encrypt_and_tag" : "mbedtls_gcm_crypt_and_tag")
        return (output, tag)
    }

    /// Decrypts and verifies; throws `.authenticationFailed` when the tag does not match, and
    /// returns no plaintext in that case.
    static func open(
        _ mode: Mode,
        key: [UInt8],
        nonce: [UInt8],
        aad: [UInt8],
        ciphertext: [UInt8],
        tag: [UInt8]
    ) throws(FrameProtectionError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ciphertext.count)
        let code = withKeyedContext(mode, key: key) { context in
            switch context {
            case .ccm(let ccm):
                return mbedtls_ccm_auth_decrypt(
                    ccm,
                    ciphertext.count,
                    nonce,
                    nonce.count,
                    aad,
                    aad.count,
                    ciphertext,
                    &output,
                    tag,
                    tag.count
                )
            case .gcm(let gcm):
                return mbedtls_gcm_auth_decrypt(
                    gcm,
                    ciphertext.count,
                    nonce,
                    nonce.count,
                    aad,
                    aad.count,
                    tag,
                    tag.count,
                    ciphertext,
                    &output
                )
            }
        }
        if code == MBEDTLS_ERR_CCM_AUTH_FAILED || code == MBEDTLS_ERR_GCM_AUTH_FAILED {
            throw .authenticationFailed
        }
        try check(code, mode == .ccm ? "mbedtls_ccm_auth_decrypt" : "mbedtls_gcm_auth_decrypt")
        return output
    }

    private enum Context {
        case ccm(UnsafeMutablePointer<mbedtls_ccm_context>)
        case gcm(UnsafeMutablePointer<mbedtls_gcm_context>)
    }

    /// Runs `body` with a context keyed by `key`, and frees the context (which wipes the
    /// expanded key) on every path. A setkey failure is returned as the status code.
    private static func withKeyedContext(_ mode: Mode, key: [UInt8], _ body: (Context) -> Int32) -> Int32 {
        let bits = UInt32(truncatingIfNeeded: key.count * 8)
        switch mode {
        case .ccm:
            var ccm = mbedtls_ccm_context()
            return withUnsafeMutablePointer(to: &ccm) { pointer in
                mbedtls_ccm_init(pointer)
                defer { mbedtls_ccm_free(pointer) }
                let status = mbedtls_ccm_setkey(pointer, MBEDTLS_CIPHER_ID_AES, key, bits)
                return status != 0 ? status : body(.ccm(pointer))
            }
        case .gcm:
            var gcm = mbedtls_gcm_context()
            return withUnsafeMutablePointer(to: &gcm) { pointer in
                mbedtls_gcm_init(pointer)
                defer { mbedtls_gcm_free(pointer) }
                let status = mbedtls_gcm_setkey(pointer, MBEDTLS_CIPHER_ID_AES, key, bits)
                return status != 0 ? status : body(.gcm(pointer))
            }
        }
    }

    private static func check(_ code: Int32, _ function: String) throws(FrameProtectionError) {
        guard code != 0 else { return }
        throw .library(function: function, code: code, message: MbedTLSStatus.message(for: code))
    }
}

/// The NDP security handshake's auth token and Key Descriptor MICs (nan-wire-reference.md 4.2;
/// README subtlety 15). NAF bodies start at the Category octet; the caller zeroes the MIC field.
public enum NDPKeyDescriptorMIC {
    public static let authTokenLength = 16

    /// First 16 octets of SHA-256/384 over the m1 NAF body exactly as sent (its MIC field is zero).
    public static func authToken(m1Body: [UInt8], suite: NANSecurityCipherSuite) -> [UInt8] {
        Array(suite.hash.digest(m1Body).prefix(authTokenLength))
    }

    /// MIC of m2 and m4: Truncate-16/24(HMAC-Hash(KCK, body with the MIC zeroed)).
    public static func mic(ptk: NDPPTK, bodyWithMICZeroed: [UInt8]) -> [UInt8] {
        Array(ptk.suite.hash.hmac(key: ptk.kck, bodyWithMICZeroed).prefix(ptk.suite.micLength))
    }

    /// MIC of m3, which also covers the auth token: HMAC(KCK, AuthToken || body).
    public static func m3MIC(
        ptk: NDPPTK,
        authToken: [UInt8],
        bodyWithMICZeroed: [UInt8]
    ) throws(KeyDerivationError) -> [UInt8] {
        try KeyDerivationError.requireLength(authToken, authTokenLength, "auth token")
        return Array(ptk.suite.hash.hmac(key: ptk.kck, authToken, bodyWithMICZeroed).prefix(ptk.suite.micLength))
    }

    public static func verify(_ received: [UInt8], ptk: NDPPTK, bodyWithMICZeroed: [UInt8]) throws(KeyDerivationError) {
        try KeyDerivationError.requireLength(received, ptk.suite.micLength, "Key MIC")
        guard ConstantTime.equals(received, mic(ptk: ptk, bodyWithMICZeroed: bodyWithMICZeroed)) else {
            throw .verificationFailed(what: "NDP Key MIC")
        }
    }

    public static func verifyM3(
        _ received: [UInt8],
        ptk: NDPPTK,
        authToken: [UInt8],
        bodyWithMICZeroed: [UInt8]
    ) throws(KeyDerivationError) {
        try KeyDerivationError.requireLength(received, ptk.suite.micLength, "Key MIC")
        let expected = try m3MIC(ptk: ptk, authToken: authToken, bodyWithMICZeroed: bodyWithMICZeroed)
        guard ConstantTime.equals(received, expected) else { throw .verificationFailed(what: "NDP m3 Key MIC") }
    }
}

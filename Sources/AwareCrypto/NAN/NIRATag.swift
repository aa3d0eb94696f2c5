/// The NIRA tag (nan-wire-reference.md 2.17, cipher version 0):
/// Truncate-64(HMAC-SHA-256(NIK, "NIR" || NMI || Nonce)), NMI being the transmitter's own.
public enum NIRATag {
    public static let cipherVersion: UInt8 = 0
    public static let nikLength = 16
    public static let nonceLength = 8
    public static let tagLength = 8

    public static func compute(nik: [UInt8], nmi: [UInt8], nonce: [UInt8]) throws(KeyDerivationError) -> [UInt8] {
        try KeyDerivationError.requireLength(nik, nikLength, "NIK")
        try KeyDerivationError.requireLength(nmi, 6, "NMI")
        try KeyDerivationError.requireLength(nonce, nonceLength, "NIRA nonce")
        return Array(KDFHash.sha256.hmac(key: nik, Array("NIR".utf8), nmi, nonce).prefix(tagLength))
    }

    /// True when `tag` is the tag of (`nik`, `nmi`, `nonce`): how a receiver tries each cached
    /// peer NIK against a received NIRA (3.7). Wrong-length input is simply no match.
    public static func matches(tag: [UInt8], nik: [UInt8], nmi: [UInt8], nonce: [UInt8]) -> Bool {
        guard let expected = try? compute(nik: nik, nmi: nmi, nonce: nonce) else { return false }
        return ConstantTime.equals(tag, expected)
    }
}

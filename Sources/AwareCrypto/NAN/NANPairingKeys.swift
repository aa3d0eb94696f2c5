/// Keys derived from the PASN KDK after pairing (nan-wire-reference.md 3.5):
/// KDF-H(NM-KDK, label, I-NMI || R-NMI) with H = SHA-256 for CSID 7 and SHA-384 for CSID 8.
///
/// hostap's comments leave two doubts (3.5, open question 4): the opportunistic NPK's
/// "KDF-HASH-256" might mean SHA-256 always, and the ND-PMK comment says "always SHA-256" while
/// the code passes the suite. Like hostap and ESP-IDF, the suite's hash is used for all three;
/// the CSID-8 results are therefore unverified against the specification.
public enum NANPairingKeys {
    public static let kdkLength = 32

    /// NM-KEK, which wraps the NIK KDEs (3.6): 16 octets for CSID 7, 32 for CSID 8.
    public static func nmKEK(
        kdk: [UInt8],
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        suite: NANSecurityCipherSuite
    ) throws(KeyDerivationError) -> [UInt8] {
        let length = suite == .ncsPKPASN128 ? 16 : 32
        return try derive(kdk, initiatorNMI, responderNMI, suite, "NAN Management KEK Derivation", length)
    }

    /// NPK of an opportunistic pairing (AKM PASN), 32 octets. A SAE pairing's NPK is the SAE
    /// PMK instead (3.4, README subtlety 9).
    public static func opportunisticNPK(
        kdk: [UInt8],
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        suite: NANSecurityCipherSuite
    ) throws(KeyDerivationError) -> [UInt8] {
        try derive(kdk, initiatorNMI, responderNMI, suite, "NAN Opportunistic NPK Derivation", 32)
    }

    /// ND-PMK for NDPs with the paired peer (CSID 7/8), 32 octets.
    public static func ndPMK(
        kdk: [UInt8],
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        suite: NANSecurityCipherSuite
    ) throws(KeyDerivationError) -> [UInt8] {
        try derive(kdk, initiatorNMI, responderNMI, suite, "NDP PMK Derivation", 32)
    }

    private static func derive(
        _ kdk: [UInt8],
        _ initiatorNMI: [UInt8],
        _ responderNMI: [UInt8],
        _ suite: NANSecurityCipherSuite,
        _ label: String,
        _ length: Int
    ) throws(KeyDerivationError) -> [UInt8] {
        guard suite.isPairingSuite else { throw .unsupportedCipherSuite(csid: suite.csid) }
        try KeyDerivationError.requireLength(kdk, kdkLength, "KDK")
        try KeyDerivationError.requireLength(initiatorNMI, 6, "initiator NMI")
        try KeyDerivationError.requireLength(responderNMI, 6, "responder NMI")
        return try IEEE80211KDF.derive(
            hash: suite.hash,
            key: kdk,
            label: label,
            context: initiatorNMI + responderNMI,
            length: length
        )
    }
}

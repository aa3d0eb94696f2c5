/// The ND-PMK from a passphrase and its identifier, the ND-PMKID (nan-wire-reference.md 4.2).
public enum NDPMK {
    public static let iterations = 4096
    public static let length = 32

    /// PBKDF2-SHA-256 (CSID 1/7) or -SHA-384 (CSID 2/8) over the passphrase with salt
    /// 0x00 || CSID || Service ID || publisher NMI, 4096 iterations, 32 octets.
    public static func fromPassphrase(
        _ passphrase: String,
        suite: NANSecurityCipherSuite,
        serviceID: [UInt8],
        publisherNMI: [UInt8]
    ) throws(KeyDerivationError) -> [UInt8] {
        try KeyDerivationError.requireLength(serviceID, 6, "service ID")
        try KeyDerivationError.requireLength(publisherNMI, 6, "publisher NMI")
        return try PBKDF2.derive(
            hash: suite.hash,
            password: Array(passphrase.utf8),
            salt: [0x00, suite.csid] + serviceID + publisherNMI,
            iterations: iterations,
            length: length
        )
    }

    /// ND-PMKID = Truncate-128(HMAC-Hash(PMK, "NAN PMK Name" || IAddr || RAddr || ServiceID))
    /// with the initiator's and responder's NMIs (not NDIs; README subtlety 15).
    public static func pmkid(
        pmk: [UInt8],
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        serviceID: [UInt8],
        suite: NANSecurityCipherSuite
    ) throws(KeyDerivationError) -> [UInt8] {
        try KeyDerivationError.requireLength(pmk, length, "ND-PMK")
        try KeyDerivationError.requireLength(initiatorNMI, 6, "initiator NMI")
        try KeyDerivationError.requireLength(responderNMI, 6, "responder NMI")
        try KeyDerivationError.requireLength(serviceID, 6, "service ID")
        let mac = suite.hash.hmac(key: pmk, Array("NAN PMK Name".utf8), initiatorNMI, responderNMI, serviceID)
        return Array(mac.prefix(16))
    }
}

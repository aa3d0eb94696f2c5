/// The NAN cipher suites that have a key schedule here (nan-wire-reference.md 2.13), with the
/// hash and key lengths each one implies.
public enum NANSecurityCipherSuite: UInt8, Hashable, Sendable, CaseIterable {
    case ncsSK128 = 1
    case ncsSK256 = 2
    case ncsPKPASN128 = 7
    case ncsPKPASN256 = 8

    /// Throws `.unsupportedCipherSuite` for a CSID without a key schedule (0, 3-6, 9+).
    public init(csid: UInt8) throws(KeyDerivationError) {
        guard let suite = NANSecurityCipherSuite(rawValue: csid) else { throw .unsupportedCipherSuite(csid: csid) }
        self = suite
    }

    public var csid: UInt8 { rawValue }

    /// SHA-256 for the 128-bit suites, SHA-384 for the 256-bit ones (4.2, 3.5).
    public var hash: KDFHash {
        switch self {
        case .ncsSK128, .ncsPKPASN128: return .sha256
        case .ncsSK256, .ncsPKPASN256: return .sha384
        }
    }

    /// True for the suites a PASN pairing negotiates (7, 8).
    public var isPairingSuite: Bool { self == .ncsPKPASN128 || self == .ncsPKPASN256 }

    /// Key Descriptor MIC length: 16 or 24 octets (2.15).
    public var micLength: Int { hash == .sha256 ? 16 : 24 }
}

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

/// NDP PTK = KDF-Hash(PMK, "NAN Pairwise key expansion", IAddr || RAddr || INonce || RNonce)
/// with the NDI addresses (nan-wire-reference.md 4.2): KCK/KEK/TK = 16/16/16 octets for CSID
/// 1 and 7, 24/32/32 for CSID 2 and 8.
public struct NDPPTK: Hashable, Sendable {
    public static let label = "NAN Pairwise key expansion"

    public let suite: NANSecurityCipherSuite
    public let kck: [UInt8]
    public let kek: [UInt8]
    public let tk: [UInt8]

    public static func derive(
        pmk: [UInt8],
        initiatorNDI: [UInt8],
        responderNDI: [UInt8],
        iNonce: [UInt8],
        rNonce: [UInt8],
        suite: NANSecurityCipherSuite
    ) throws(KeyDerivationError) -> NDPPTK {
        try KeyDerivationError.requireLength(pmk, 32, "ND-PMK")
        try KeyDerivationError.requireLength(initiatorNDI, 6, "initiator NDI")
        try KeyDerivationError.requireLength(responderNDI, 6, "responder NDI")
        try KeyDerivationError.requireLength(iNonce, 32, "INonce")
        try KeyDerivationError.requireLength(rNonce, 32, "RNonce")
        let (kckLength, kekLength, tkLength) = suite.hash == .sha256 ? (16, 16, 16) : (24, 32, 32)
        let ptk = try IEEE80211KDF.derive(
            hash: suite.hash,
            key: pmk,
            label: label,
            context: initiatorNDI + responderNDI + iNonce + rNonce,
            length: kckLength + kekLength + tkLength
        )
        return NDPPTK(
            suite: suite,
            kck: Array(ptk[0..<kckLength]),
            kek: Array(ptk[kckLength..<(kckLength + kekLength)]),
            tk: Array(ptk[(kckLength + kekLength)...])
        )
    }
}

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

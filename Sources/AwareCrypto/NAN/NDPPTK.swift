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

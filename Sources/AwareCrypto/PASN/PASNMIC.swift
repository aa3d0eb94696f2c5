/// The MIC elements of PASN frames 2 and 3 (nan-wire-reference.md 3.4.2; session README
/// subtlety 7). The transmitter's NMI comes first in both. Frame bodies start at the
/// Authentication Algorithm field and carry the MIC field zeroed: the caller passes those
/// octets as they are on the wire apart from the zeroed MIC.
public enum PASNMIC {
    /// Frame 2 (responder -> initiator): HMAC(KCK, ResponderNMI || InitiatorNMI || RSNE ||
    /// [RSNXE] || Frame2Body). NAN has no beacon, so RSNE and RSNXE are the ones inside frame 2
    /// itself, each as a whole element (ID and length included).
    public static func frame2(
        ptk: PASNPTK,
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        rsne: [UInt8],
        rsnxe: [UInt8],
        frameBody: [UInt8]
    ) throws(KeyDerivationError) -> [UInt8] {
        try KeyDerivationError.requireLength(initiatorNMI, 6, "initiator NMI")
        try KeyDerivationError.requireLength(responderNMI, 6, "responder NMI")
        let mac = ptk.hash.hmac(key: ptk.kck, responderNMI, initiatorNMI, rsne, rsnxe, frameBody)
        return Array(mac.prefix(ptk.micLength))
    }

    /// Frame 3 (initiator -> responder): HMAC(KCK, InitiatorNMI || ResponderNMI ||
    /// Hash(Frame1Body) || Frame3Body); frame 1 has no MIC, so its body is hashed as received.
    public static func frame3(
        ptk: PASNPTK,
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        frame1Body: [UInt8],
        frameBody: [UInt8]
    ) throws(KeyDerivationError) -> [UInt8] {
        try KeyDerivationError.requireLength(initiatorNMI, 6, "initiator NMI")
        try KeyDerivationError.requireLength(responderNMI, 6, "responder NMI")
        let frame1Hash = ptk.hash.digest(frame1Body)
        let mac = ptk.hash.hmac(key: ptk.kck, initiatorNMI, responderNMI, frame1Hash, frameBody)
        return Array(mac.prefix(ptk.micLength))
    }

    public static func verifyFrame2(
        _ received: [UInt8],
        ptk: PASNPTK,
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        rsne: [UInt8],
        rsnxe: [UInt8],
        frameBody: [UInt8]
    ) throws(KeyDerivationError) {
        try check(received, "PASN frame 2 MIC", ptk: ptk) { () throws(KeyDerivationError) in
            try frame2(
                ptk: ptk,
                initiatorNMI: initiatorNMI,
                responderNMI: responderNMI,
                rsne: rsne,
                rsnxe: rsnxe,
                frameBody: frameBody
            )
        }
    }

    public static func verifyFrame3(
        _ received: [UInt8],
        ptk: PASNPTK,
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        frame1Body: [UInt8],
        frameBody: [UInt8]
    ) throws(KeyDerivationError) {
        try check(received, "PASN frame 3 MIC", ptk: ptk) { () throws(KeyDerivationError) in
            try frame3(
                ptk: ptk,
                initiatorNMI: initiatorNMI,
                responderNMI: responderNMI,
                frame1Body: frame1Body,
                frameBody: frameBody
            )
        }
    }

    /// A received MIC must have the PTK's MIC length and equal the expected one, compared in
    /// constant time.
    private static func check(
        _ received: [UInt8],
        _ what: String,
        ptk: PASNPTK,
        expected: () throws(KeyDerivationError) -> [UInt8]
    ) throws(KeyDerivationError) {
        try KeyDerivationError.requireLength(received, ptk.micLength, what)
        guard ConstantTime.equals(received, try expected()) else { throw .verificationFailed(what: what) }
    }
}

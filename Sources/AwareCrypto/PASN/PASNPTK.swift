/// PASN-PTK = KDF-Hash(PMK, "PASN PTK Derivation", InitiatorNMI || ResponderNMI || DHss),
/// split as KCK (32) || TK (16/32) || KDK (32) with no KEK in NAN (nan-wire-reference.md 3.4.2;
/// session README subtleties 6 and 8). The KCK is 256 bits whatever the hash (IEEE Std
/// 802.11-2024 12.13.8: KCK = L(PASN-PTK, 0, 256)).
public struct PASNPTK: Hashable, Sendable {
    public static let label = "PASN PTK Derivation"
    public static let kckLength = 32
    public static let kdkLength = 32

    public let hash: KDFHash
    public let kck: [UInt8]
    public let tk: [UInt8]
    public let kdk: [UInt8]

    /// Octets of a PASN MIC element for this PTK's hash: 16 (SHA-256) or 24 (SHA-384).
    public var micLength: Int { PASNPTK.micLength(for: hash) }

    public static func micLength(for hash: KDFHash) -> Int {
        switch hash {
        case .sha256: return 16
        case .sha384: return 24
        }
    }

    /// SHA-384 only for AKM PASN with a 256-bit cipher, SHA-256 otherwise — so SAE pairing stays
    /// on SHA-256 even with GCMP-256 (nan-wire-reference.md 3.4.2; README subtlety 4; hostap
    /// `pasn_select_hash_alg`).
    public static func hash(akm: PASNAKM, cipher: PASNCipher) -> KDFHash {
        akm == .pasn && cipher == .gcmp256 ? .sha384 : .sha256
    }

    /// `initiatorNMI` takes the 802.11 "SPA" slot and `responderNMI` the "BSSID" slot.
    public static func derive(
        pmk: [UInt8],
        initiatorNMI: [UInt8],
        responderNMI: [UInt8],
        dhss: [UInt8],
        akm: PASNAKM,
        cipher: PASNCipher
    ) throws(KeyDerivationError) -> PASNPTK {
        try KeyDerivationError.requireLength(initiatorNMI, 6, "initiator NMI")
        try KeyDerivationError.requireLength(responderNMI, 6, "responder NMI")
        guard !pmk.isEmpty else { throw .tooShort(field: "PMK", minimum: 1, actual: 0) }
        guard dhss.count == 32 || dhss.count == 48 else {
            throw .invalidLength(field: "DHss", expected: dhss.count < 48 ? 32 : 48, actual: dhss.count)
        }
        let hash = hash(akm: akm, cipher: cipher)
        let tkLength = cipher.temporalKeyLength
        let ptk = try IEEE80211KDF.derive(
            hash: hash,
            key: pmk,
            label: label,
            context: initiatorNMI + responderNMI + dhss,
            length: kckLength + tkLength + kdkLength
        )
        return PASNPTK(
            hash: hash,
            kck: Array(ptk[0..<kckLength]),
            tk: Array(ptk[kckLength..<(kckLength + tkLength)]),
            kdk: Array(ptk[(kckLength + tkLength)...])
        )
    }
}

/// The AKM of a PASN exchange (nan-wire-reference.md 3.4): SAE (00-0F-AC:8) for PIN or
/// passphrase pairing, PASN (00-0F-AC:21) for opportunistic pairing. Verification reuses the
/// AKM stored with the NPK (3.7), so a pairing record keeps it: the raw values are what
/// `pairings.json` stores.
public enum PASNAKM: String, Hashable, Sendable, CaseIterable, Codable {
    case sae
    case pasn

    /// The RSN AKM suite type under OUI 00-0F-AC.
    public var suiteType: UInt8 {
        switch self {
        case .sae: return 8
        case .pasn: return 21
        }
    }
}

/// The pairwise cipher negotiated in the PASN RSNE (nan-wire-reference.md 3.4: CCMP-128 with
/// NCS-PK-PASN-128, GCMP-256 with NCS-PK-PASN-256).
public enum PASNCipher: Hashable, Sendable, CaseIterable {
    case ccmp128
    case gcmp256

    /// TK length in octets (the cipher's key length).
    public var temporalKeyLength: Int {
        switch self {
        case .ccmp128: return 16
        case .gcmp256: return 32
        }
    }
}

extension PASNCipher {
    /// MIC length appended to a protected MPDU: 8 octets for CCMP-128 (M = 8,
    /// 12.5.3.3.1), 16 for GCMP-256 (12.5.5.3.1).
    public var frameMICLength: Int {
        aeadMode.tagLength
    }

    var aeadMode: FrameAEAD.Mode {
        switch self {
        case .ccmp128: return .ccm
        case .gcmp256: return .gcm
        }
    }
}

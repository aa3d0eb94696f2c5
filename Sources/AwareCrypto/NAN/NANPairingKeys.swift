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

/// The plaintext Key Data of the NIK Shared Key Descriptor (nan-wire-reference.md 3.6):
/// NIK KDE `DD 15 50 6F 9A 24 | cipher version 0 | NIK(16)`, Key Lifetime KDE
/// `DD 0A 50 6F 9A 25 | key bitmap (LE16) | lifetime (BE32)`, then `DD 00 ...` padding to a
/// multiple of 8, wrapped with the NM-KEK (AES key wrap).
public struct NIKKeyData: Hashable, Sendable {
    /// Key Lifetime KDE key bitmap bit for the NIK (b3).
    public static let nikBitmapBit: UInt16 = 0x0008
    static let wfaOUI: [UInt8] = [0x50, 0x6F, 0x9A]
    static let nikKDEType: UInt8 = 0x24
    static let lifetimeKDEType: UInt8 = 0x25

    public let nik: [UInt8]
    /// NIK lifetime in seconds; nil when the sender left the Lifetime KDE out (ESP-IDF notes
    /// that iPhones do, 3.9).
    public let lifetime: UInt32?
    /// Key bitmap of the Lifetime KDE (0x0008 = NIK).
    public let keyBitmap: UInt16

    public init(
        nik: [UInt8],
        lifetime: UInt32?,
        keyBitmap: UInt16 = NIKKeyData.nikBitmapBit
    )
        throws(KeyDerivationError)
    {
        try KeyDerivationError.requireLength(nik, NIRATag.nikLength, "NIK")
        self.nik = nik
        self.lifetime = lifetime
        self.keyBitmap = keyBitmap
    }

    /// The KDEs with padding, ready for AES key wrap.
    public func plaintext() -> [UInt8] {
        var out: [UInt8] = [0xDD, 0x15] + NIKKeyData.wfaOUI + [NIKKeyData.nikKDEType, NIRATag.cipherVersion] + nik
        if let lifetime {
            out += [0xDD, 0x0A] + NIKKeyData.wfaOUI + [NIKKeyData.lifetimeKDEType]
            out += [UInt8(truncatingIfNeeded: keyBitmap), UInt8(truncatingIfNeeded: keyBitmap >> 8)]
            out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: lifetime >> $0) }
        }
        if !out.count.isMultiple(of: 8) {
            out.append(0xDD)
            while !out.count.isMultiple(of: 8) { out.append(0x00) }
        }
        return out
    }

    public func wrapped(kek: [UInt8]) throws(KeyDerivationError) -> [UInt8] {
        try AESKeyWrap.wrap(plaintext(), kek: kek)
    }

    public static func unwrap(_ wrapped: [UInt8], kek: [UInt8]) throws(KeyDerivationError) -> NIKKeyData {
        try parse(AESKeyWrap.unwrap(wrapped, kek: kek))
    }

    /// Reads the KDEs of decrypted key data. Elements other than the two NAN KDEs are skipped;
    /// the NIK KDE is required, the Lifetime KDE optional.
    public static func parse(_ plaintext: [UInt8]) throws(KeyDerivationError) -> NIKKeyData {
        var nik: [UInt8]?
        var lifetime: UInt32?
        var bitmap = nikBitmapBit
        var offset = 0
        while offset < plaintext.count {
            let id = plaintext[offset]
            if id == 0xDD, offset + 1 == plaintext.count || plaintext[offset + 1] == 0 {
                guard plaintext[(offset + 1)...].allSatisfy({ $0 == 0 }) else {
                    throw .malformedKeyData(reason: "non-zero octet after the DD padding at offset \(offset)")
                }
                break
            }
            guard offset + 2 <= plaintext.count else {
                throw .malformedKeyData(reason: "element at offset \(offset) has no length octet")
            }
            let length = Int(plaintext[offset + 1])
            let start = offset + 2
            guard start + length <= plaintext.count else {
                throw .malformedKeyData(reason: "element at offset \(offset) runs past the end")
            }
            let body = Array(plaintext[start..<(start + length)])
            offset = start + length
            guard id == 0xDD, body.count >= 4, Array(body[0..<3]) == wfaOUI else { continue }
            switch body[3] {
            case nikKDEType:
                guard body.count == 4 + 1 + NIRATag.nikLength else {
                    throw .malformedKeyData(reason: "NIK KDE length \(length), expected 21")
                }
                guard body[4] == NIRATag.cipherVersion else {
                    throw .malformedKeyData(reason: "NIK KDE cipher version \(body[4]), expected 0")
                }
                nik = Array(body[5...])
            case lifetimeKDEType:
                guard body.count == 4 + 2 + 4 else {
                    throw .malformedKeyData(reason: "Key Lifetime KDE length \(length), expected 10")
                }
                bitmap = UInt16(body[4]) | UInt16(body[5]) << 8
                lifetime = body[6...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            default:
                continue
            }
        }
        guard let nik else { throw .malformedKeyData(reason: "no NIK KDE") }
        return try NIKKeyData(nik: nik, lifetime: lifetime, keyBitmap: bitmap)
    }
}

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

/// The NPK identifier carried as the RSNE PMKID in pairing verification: the sender's own NIRA
/// nonce || tag (nan-wire-reference.md 3.7; README subtlety 16).
public struct NPKID: Hashable, Sendable {
    public let nonce: [UInt8]
    public let tag: [UInt8]

    /// The 16 octets of the PMKID field.
    public var bytes: [UInt8] { nonce + tag }

    /// Splits a received 16-octet PMKID.
    public init(bytes: [UInt8]) throws(KeyDerivationError) {
        try KeyDerivationError.requireLength(bytes, NIRATag.nonceLength + NIRATag.tagLength, "NPKID")
        nonce = Array(bytes[0..<NIRATag.nonceLength])
        tag = Array(bytes[NIRATag.nonceLength...])
    }

    /// The NPKID a device sends: its own NIK and NMI with a fresh nonce.
    public init(nik: [UInt8], nmi: [UInt8], nonce: [UInt8]) throws(KeyDerivationError) {
        self.tag = try NIRATag.compute(nik: nik, nmi: nmi, nonce: nonce)
        self.nonce = nonce
    }

    /// True when this NPKID was made with the peer's `nik` and `nmi`.
    public func matches(nik: [UInt8], nmi: [UInt8]) -> Bool {
        NIRATag.matches(tag: tag, nik: nik, nmi: nmi, nonce: nonce)
    }
}

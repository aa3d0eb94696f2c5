import AwareCrypto

/// What authenticates one PASN exchange (nan-wire-reference.md 3.4, 3.7).
public enum PASNCredential: Hashable, Sendable {
    /// Pairing setup: SAE hash-to-element with the PIN or passphrase as the password, AKM
    /// 00-0F-AC:8, the SAE PMK becomes the NPK.
    case password([UInt8])
    /// Pairing verification with the NPK cached at an earlier pairing: no Wrapped Data, the RSNE
    /// PMKID and a NIRA carry our NPKID, PMK = NPK.
    case cachedKey(PASNCachedKey)

    public var isVerification: Bool {
        if case .cachedKey = self { true } else { false }
    }
}

/// A cached pairing as PASN verification uses it (nan-wire-reference.md 3.7).
public struct PASNCachedKey: Hashable, Sendable {
    /// The NPK, 32 octets.
    public var npk: [UInt8]
    /// The AKM of the pairing that produced the NPK (SAE for a PIN pairing).
    public var akm: PASNAKM
    /// Our NPKID: a fresh NIRA nonce with the tag over our own NIK and NMI.
    public var ownNPKID: NPKID
    /// The peer's NIK, to check the NPKID it answers with against its NMI; nil when the owner
    /// already resolved the peer (the responder looks the initiator up before answering).
    public var peerNIK: [UInt8]?

    public init(npk: [UInt8], akm: PASNAKM, ownNPKID: NPKID, peerNIK: [UInt8]?) {
        self.npk = npk
        self.akm = akm
        self.ownNPKID = ownNPKID
        self.peerNIK = peerNIK
    }
}

extension PASNCachedKey: CustomStringConvertible {
    /// Keys stay out of logs.
    public var description: String { "PASNCachedKey(akm: \(akm), npk: <redacted>)" }
}

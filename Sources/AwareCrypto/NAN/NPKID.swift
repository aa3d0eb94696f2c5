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

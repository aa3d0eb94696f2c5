/// CCMP-128 / GCMP-256 protection of individually addressed management frames with the
/// pairwise NM-TK, as a NAN device must do itself for SDFs and NAFs to a paired peer
/// (nan-wire-reference.md 3.8; IEEE 802.11-2020 12.5.3.3 CCMP, 12.5.5.3 GCMP).
///
/// A protected MPDU is: 24-octet management header with Protected (b14) set || 8-octet
/// CCMP/GCMP header || encrypted body || MIC (8 octets CCMP-128, 16 GCMP-256). No FCS.
public enum ManagementFrameProtection {
    /// Protects a plaintext MPDU (24-octet management header + body, no FCS) and returns the
    /// protected MPDU. The caller owns the PN sequence: one increasing PN per frame and key.
    public static func protect(
        _ frame: [UInt8],
        key: [UInt8],
        cipher: PASNCipher,
        packetNumber: UInt64,
        keyID: UInt8 = 0
    ) throws(FrameProtectionError) -> [UInt8] {
        try validate(key: key, cipher: cipher)
        let header = try ManagementHeader(frame: frame)
        guard !header.isProtected else { throw .alreadyProtected }
        let protectionHeader = try ProtectionHeader(packetNumber: packetNumber, keyID: keyID)
        let body = Array(frame[ManagementHeader.length...])
        let sealed = try FrameAEAD.seal(
            cipher.aeadMode,
            key: key,
            nonce: nonce(header, protectionHeader, cipher),
            aad: header.additionalAuthenticatedData,
            plaintext: body
        )
        return header.withProtected(true) + protectionHeader.octets + sealed.ciphertext + sealed.tag
    }

    /// Verifies and decrypts a protected MPDU. Returns the plaintext MPDU (Protected bit
    /// cleared, CCMP/GCMP header and MIC removed) and the PN it carried; replay checking is
    /// the caller's (`ReplayCounter`), after this succeeds. The key ID is not checked: the
    /// caller chose the key.
    public static func unprotect(
        _ frame: [UInt8],
        key: [UInt8],
        cipher: PASNCipher
    ) throws(FrameProtectionError) -> (frame: [UInt8], packetNumber: UInt64) {
        try validate(key: key, cipher: cipher)
        let header = try ManagementHeader(frame: frame)
        guard header.isProtected else { throw .notProtected }
        let bodyStart = ManagementHeader.length + ProtectionHeader.length
        let minimum = bodyStart + cipher.frameMICLength
        guard frame.count >= minimum else { throw .frameTooShort(minimum: minimum, actual: frame.count) }
        let protectionHeader = try ProtectionHeader(octets: frame[ManagementHeader.length..<bodyStart])
        guard protectionHeader.extendedIV else { throw .extendedIVClear }
        let micStart = frame.count - cipher.frameMICLength
        let body = try FrameAEAD.open(
            cipher.aeadMode,
            key: key,
            nonce: nonce(header, protectionHeader, cipher),
            aad: header.additionalAuthenticatedData,
            ciphertext: Array(frame[bodyStart..<micStart]),
            tag: Array(frame[micStart...])
        )
        return (header.withProtected(false) + body, protectionHeader.packetNumber)
    }

    private static func validate(key: [UInt8], cipher: PASNCipher) throws(FrameProtectionError) {
        guard key.count == cipher.temporalKeyLength else {
            throw .invalidKeyLength(cipher: cipher, expected: cipher.temporalKeyLength, actual: key.count)
        }
    }

    private static func nonce(
        _ header: ManagementHeader,
        _ protectionHeader: ProtectionHeader,
        _ cipher: PASNCipher
    ) -> [UInt8] {
        switch cipher {
        case .ccmp128: return header.ccmpNonce(protectionHeader)
        case .gcmp256: return header.gcmpNonce(protectionHeader)
        }
    }
}

/// What CCMP and GCMP need from the 24-octet management MAC header (Frame Control, Duration,
/// A1, A2, A3, Sequence Control): the AAD and the nonce inputs (nan-wire-reference.md 3.8;
/// IEEE 802.11-2020 12.5.3.3.3–12.5.3.3.4, reused by GCMP in 12.5.5.3.3–12.5.5.3.4).
struct ManagementHeader {
    static let length = 24

    /// Frame Control octet 1 (b8–b15), bit positions within the octet.
    static let retryBit: UInt8 = 0x08
    static let powerManagementBit: UInt8 = 0x10
    static let moreDataBit: UInt8 = 0x20
    static let protectedBit: UInt8 = 0x40
    static let orderBit: UInt8 = 0x80

    let octets: [UInt8]

    /// Takes the first 24 octets of `frame`; checks that it is a management frame without an
    /// HT Control field, so that the header really ends at octet 24.
    init(frame: [UInt8]) throws(FrameProtectionError) {
        guard frame.count >= Self.length else { throw .frameTooShort(minimum: Self.length, actual: frame.count) }
        let type = (frame[0] >> 2) & 0x03
        guard type == 0 else { throw .notManagementFrame(type: type) }
        guard frame[1] & Self.orderBit == 0 else { throw .htControlPresent }
        octets = Array(frame[0..<Self.length])
    }

    /// The AAD and nonce rules applied to any 24-octet header without the management-frame
    /// checks: the published CCMP/GCMP vectors are data frames whose first 24 octets follow
    /// the same masking, which is how the tests check these rules against them.
    init(anyHeader octets: [UInt8]) throws(FrameProtectionError) {
        guard octets.count == Self.length else { throw .frameTooShort(minimum: Self.length, actual: octets.count) }
        self.octets = octets
    }

    var isProtected: Bool { octets[1] & Self.protectedBit != 0 }

    /// A2, the transmitter address, which both nonces carry.
    var transmitterAddress: ArraySlice<UInt8> { octets[10..<16] }

    /// FC with Retry, Power Management and More Data masked to 0 and Protected set to 1; the
    /// subtype is kept because only Data frames mask it, and Order is kept because only
    /// frames with a QoS Control field mask it (12.5.3.3.3). Then A1, A2, A3, and Sequence
    /// Control with the sequence number masked and the fragment number kept. A management
    /// frame has neither A4 nor QoS Control, so the AAD is always 22 octets.
    var additionalAuthenticatedData: [UInt8] {
        let maskedFlags = octets[1] & ~(Self.retryBit | Self.powerManagementBit | Self.moreDataBit)
        return [octets[0], maskedFlags | Self.protectedBit] + octets[4..<22] + [octets[22] & 0x0F, 0]
    }

    /// CCM nonce: Nonce Flags (Priority 0, Management b4 = 1 because this is a management
    /// frame, PV1 0) || A2 || PN5…PN0 (12.5.3.3.4).
    func ccmpNonce(_ header: ProtectionHeader) -> [UInt8] {
        [0x10] + transmitterAddress + header.packetNumberBigEndian
    }

    /// GCM nonce: A2 || PN5…PN0, 12 octets, with no flags octet (12.5.5.3.4).
    func gcmpNonce(_ header: ProtectionHeader) -> [UInt8] {
        Array(transmitterAddress) + header.packetNumberBigEndian
    }

    /// The header with Protected set (transmit) or cleared (after a successful receive).
    func withProtected(_ on: Bool) -> [UInt8] {
        var out = octets
        out[1] = on ? out[1] | Self.protectedBit : out[1] & ~Self.protectedBit
        return out
    }
}

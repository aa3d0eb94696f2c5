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

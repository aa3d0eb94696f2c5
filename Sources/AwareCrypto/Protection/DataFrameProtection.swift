/// CCMP-128 / GCMP-256 protection of the data frames of a NAN Data Path with the NDP's TK
/// (nan-wire-reference.md 4.2: the PTK derived from the ND-PMK; IEEE 802.11-2020 12.5.3.3
/// CCMP, 12.5.5.3 GCMP), for an emulator that sends its data frames at frame level.
///
/// A protected MPDU is: MAC header (QoS Data: 26 octets, 30 with HT Control) with Protected
/// (b14) set || 8-octet CCMP/GCMP header || encrypted body || MIC (8 octets CCMP-128, 16
/// GCMP-256). No FCS. The differences from management frames are in ``DataHeader``: the AAD
/// masks the subtype's low bits and covers the TID, and the CCMP nonce carries the TID as
/// its Priority.
public enum DataFrameProtection {
    /// Protects a plaintext data MPDU (header + body, no FCS) and returns the protected MPDU.
    /// The caller owns the PN sequence: one increasing PN per frame and key (per TID, if
    /// the receiver keeps a replay counter per TID, 12.5.3.4.4).
    public static func protect(
        _ frame: [UInt8],
        key: [UInt8],
        cipher: PASNCipher,
        packetNumber: UInt64,
        keyID: UInt8 = 0
    ) throws(FrameProtectionError) -> [UInt8] {
        try validate(key: key, cipher: cipher)
        return try protect(frame, key: key, mode: cipher.aeadMode, packetNumber: packetNumber, keyID: keyID)
    }

    /// Verifies and decrypts a protected data MPDU. Returns the plaintext MPDU (Protected bit
    /// cleared, CCMP/GCMP header and MIC removed) and the PN it carried; replay checking is
    /// the caller's (``ReplayCounter``), after this succeeds.
    public static func unprotect(
        _ frame: [UInt8],
        key: [UInt8],
        cipher: PASNCipher
    ) throws(FrameProtectionError) -> (frame: [UInt8], packetNumber: UInt64) {
        try validate(key: key, cipher: cipher)
        return try unprotect(frame, key: key, mode: cipher.aeadMode)
    }

    /// The work of ``protect(_:key:cipher:packetNumber:keyID:)`` for any AES key length, so
    /// that the published GCMP-128 vector can check the data-frame rules.
    static func protect(
        _ frame: [UInt8],
        key: [UInt8],
        mode: FrameAEAD.Mode,
        packetNumber: UInt64,
        keyID: UInt8
    ) throws(FrameProtectionError) -> [UInt8] {
        let header = try DataHeader(frame: frame)
        guard !header.isProtected else { throw .alreadyProtected }
        let protectionHeader = try ProtectionHeader(packetNumber: packetNumber, keyID: keyID)
        let sealed = try FrameAEAD.seal(
            mode,
            key: key,
            nonce: nonce(header, protectionHeader, mode),
            aad: header.additionalAuthenticatedData,
            plaintext: Array(frame[header.length...])
        )
        return header.withProtected(true) + protectionHeader.octets + sealed.ciphertext + sealed.tag
    }

    static func unprotect(
        _ frame: [UInt8],
        key: [UInt8],
        mode: FrameAEAD.Mode
    ) throws(FrameProtectionError) -> (frame: [UInt8], packetNumber: UInt64) {
        let header = try DataHeader(frame: frame)
        guard header.isProtected else { throw .notProtected }
        let bodyStart = header.length + ProtectionHeader.length
        let minimum = bodyStart + mode.tagLength
        guard frame.count >= minimum else { throw .frameTooShort(minimum: minimum, actual: frame.count) }
        let protectionHeader = try ProtectionHeader(octets: frame[header.length..<bodyStart])
        guard protectionHeader.extendedIV else { throw .extendedIVClear }
        let micStart = frame.count - mode.tagLength
        let body = try FrameAEAD.open(
            mode,
            key: key,
            nonce: nonce(header, protectionHeader, mode),
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
        _ header: DataHeader,
        _ protectionHeader: ProtectionHeader,
        _ mode: FrameAEAD.Mode
    ) -> [UInt8] {
        switch mode {
        case .ccm: header.ccmpNonce(protectionHeader)
        case .gcm: header.gcmpNonce(protectionHeader)
        }
    }
}

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

/// What CCMP and GCMP need from the MAC header of a data frame (IEEE 802.11-2020
/// 12.5.3.3.3–12.5.3.3.4, reused by GCMP in 12.5.5.3.3–12.5.5.3.4): where the body starts,
/// the AAD and the nonce inputs. A NAN data path sends QoS Data frames NDI to NDI
/// (To DS = From DS = 0); non-QoS Data frames follow the same rules without QoS Control,
/// which is how the published CCMP vector (a non-QoS Data frame) checks them.
///
/// Layout: Frame Control, Duration, A1, A2, A3, Sequence Control (24 octets), QoS Control
/// (2, QoS subtypes: b7 of the subtype set), HT Control (4, QoS frames with +HTC/Order set).
struct DataHeader {
    static let baseLength = 24

    /// Frame Control octet 0: subtype b4–b6 (the QoS bit b7 stays); octet 1: flag bits.
    static let subtypeLowBits: UInt8 = 0x70
    static let qosSubtypeBit: UInt8 = 0x80
    static let toDSBit: UInt8 = 0x01
    static let fromDSBit: UInt8 = 0x02

    /// The header octets, QoS Control and HT Control included.
    let octets: [UInt8]
    let hasQoSControl: Bool

    var length: Int { octets.count }

    init(frame: [UInt8]) throws(FrameProtectionError) {
        guard frame.count >= Self.baseLength else {
            throw .frameTooShort(minimum: Self.baseLength, actual: frame.count)
        }
        let type = (frame[0] >> 2) & 0x03
        guard type == 2 else { throw .notDataFrame(type: type) }
        guard frame[1] & (Self.toDSBit | Self.fromDSBit) != Self.toDSBit | Self.fromDSBit else {
            throw .fourAddressFrame
        }
        hasQoSControl = frame[0] & Self.qosSubtypeBit != 0
        let hasHTControl = hasQoSControl && frame[1] & ManagementHeader.orderBit != 0
        let length = Self.baseLength + (hasQoSControl ? 2 : 0) + (hasHTControl ? 4 : 0)
        guard frame.count >= length else { throw .frameTooShort(minimum: length, actual: frame.count) }
        octets = Array(frame[0..<length])
    }

    var isProtected: Bool { octets[1] & ManagementHeader.protectedBit != 0 }

    /// A2, the transmitter address, which both nonces carry.
    var transmitterAddress: ArraySlice<UInt8> { octets[10..<16] }

    /// TID, bits 0–3 of QoS Control; 0 without one (the nonce's Priority, 12.5.3.3.4).
    var priority: UInt8 { hasQoSControl ? octets[24] & 0x0F : 0 }

    /// FC with subtype b4–b6, Retry, Power Management and More Data masked to 0, Protected
    /// set, and Order masked in QoS frames; A1, A2, A3; Sequence Control with only the
    /// fragment number; QoS Control with only the TID (the A-MSDU Present bit is kept only
    /// between SPP A-MSDU capable peers, which NAN does not negotiate). HT Control is not
    /// covered. 22 octets, 24 with QoS Control (12.5.3.3.3).
    var additionalAuthenticatedData: [UInt8] {
        let flagMask =
            ManagementHeader.retryBit | ManagementHeader.powerManagementBit | ManagementHeader.moreDataBit
            | (hasQoSControl ? ManagementHeader.orderBit : 0)
        var aad = [octets[0] & ~Self.subtypeLowBits, (octets[1] & ~flagMask) | ManagementHeader.protectedBit]
        aad += octets[4..<22]
        aad += [octets[22] & 0x0F, 0]
        if hasQoSControl { aad += [octets[24] & 0x0F, 0] }
        return aad
    }

    /// CCM nonce: Nonce Flags (Priority = TID in b0–b3, Management b4 = 0, PV1 0) || A2 ||
    /// PN5…PN0 (12.5.3.3.4).
    func ccmpNonce(_ header: ProtectionHeader) -> [UInt8] {
        [priority] + transmitterAddress + header.packetNumberBigEndian
    }

    /// GCM nonce: A2 || PN5…PN0, 12 octets: GCMP carries no priority (12.5.5.3.4).
    func gcmpNonce(_ header: ProtectionHeader) -> [UInt8] {
        Array(transmitterAddress) + header.packetNumberBigEndian
    }

    func withProtected(_ on: Bool) -> [UInt8] {
        var out = octets
        out[1] = on ? out[1] | ManagementHeader.protectedBit : out[1] & ~ManagementHeader.protectedBit
        return out
    }
}

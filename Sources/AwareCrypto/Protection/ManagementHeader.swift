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

/// The 8-octet CCMP header (IEEE 802.11-2020 12.5.3.2), which GCMP reuses unchanged
/// (12.5.5.2): PN0 PN1 Reserved KeyIDOctet PN2 PN3 PN4 PN5, where the Key ID octet holds
/// Ext IV in b5 and the Key ID in b6–b7 (nan-wire-reference.md 3.8).
///
/// None of these octets is covered by the MIC directly; the PN is bound through the nonce.
/// The reserved octet and reserved bits are kept so that parse → serialize is byte-exact.
public struct ProtectionHeader: Hashable, Sendable {
    public static let length = 8
    /// The largest packet number the 6 PN octets can carry.
    public static let maximumPacketNumber: UInt64 = 0xFFFF_FFFF_FFFF

    private static let extendedIVBit: UInt8 = 0x20

    /// PN5…PN0 as one 48-bit integer.
    public var packetNumber: UInt64
    /// Octet 2, reserved.
    public var reserved: UInt8
    /// Octet 3 whole: Ext IV (b5), Key ID (b6–b7), reserved (b0–b4).
    public var keyIDOctet: UInt8

    public var keyID: UInt8 { keyIDOctet >> 6 }
    public var extendedIV: Bool { keyIDOctet & Self.extendedIVBit != 0 }

    /// The header a transmitter writes: Ext IV set, reserved fields zero.
    public init(packetNumber: UInt64, keyID: UInt8) throws(FrameProtectionError) {
        guard packetNumber <= Self.maximumPacketNumber else { throw .packetNumberOutOfRange(packetNumber) }
        guard keyID <= 3 else { throw .keyIDOutOfRange(keyID) }
        self.packetNumber = packetNumber
        self.reserved = 0
        self.keyIDOctet = Self.extendedIVBit | (keyID << 6)
    }

    /// Reads the 8 octets; anything else is an error.
    public init(octets: ArraySlice<UInt8>) throws(FrameProtectionError) {
        guard octets.count == Self.length else {
            throw .invalidHeaderLength(expected: Self.length, actual: octets.count)
        }
        let o = Array(octets)
        var pn: UInt64 = 0
        for index in [7, 6, 5, 4, 1, 0] {
            pn = pn << 8 | UInt64(o[index])
        }
        self.packetNumber = pn
        self.reserved = o[2]
        self.keyIDOctet = o[3]
    }

    public var octets: [UInt8] {
        [
            pnOctet(0), pnOctet(1), reserved, keyIDOctet,
            pnOctet(2), pnOctet(3), pnOctet(4), pnOctet(5),
        ]
    }

    /// PN5 first, as both nonces carry it (12.5.3.3.4, 12.5.5.3.4).
    var packetNumberBigEndian: [UInt8] { (0..<6).reversed().map(pnOctet) }

    private func pnOctet(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: packetNumber >> (8 * UInt64(index)))
    }
}

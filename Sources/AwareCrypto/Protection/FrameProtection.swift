/// Why protecting or unprotecting a management frame with the pairwise NM-TK
/// (nan-wire-reference.md 3.8), or a data frame with an NDP's TK, refused its input or failed.
public enum FrameProtectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The frame is shorter than its fixed parts: the MAC header (24 octets for management,
    /// 24 to 30 for data), plus the 8-octet CCMP/GCMP header and the MIC when the frame is
    /// protected.
    case frameTooShort(minimum: Int, actual: Int)
    /// A CCMP/GCMP header handed over on its own is not exactly 8 octets.
    case invalidHeaderLength(expected: Int, actual: Int)
    /// Frame Control says the frame is not a management frame (Type `type`, b2–b3).
    case notManagementFrame(type: UInt8)
    /// Frame Control says the frame is not a data frame (Type `type`, b2–b3), handed to
    /// data-frame protection.
    case notDataFrame(type: UInt8)
    /// Frame Control has both To DS and From DS set: a fourth address would follow Sequence
    /// Control, a layout data-frame protection does not handle.
    case fourAddressFrame
    /// Frame Control has +HTC/Order (b15) set: an HT Control field would follow the
    /// management header, a layout this implementation does not handle.
    case htControlPresent
    /// `protect` was handed a frame whose Protected Frame bit (b14) is already set.
    case alreadyProtected
    /// `unprotect` was handed a frame whose Protected Frame bit (b14) is clear.
    case notProtected
    /// The Ext IV bit (b5 of the Key ID octet) is clear: not a CCMP or GCMP header.
    case extendedIVClear
    /// The temporal key does not have the cipher's length.
    case invalidKeyLength(cipher: PASNCipher, expected: Int, actual: Int)
    /// A packet number does not fit in the 48 bits of the CCMP/GCMP header.
    case packetNumberOutOfRange(UInt64)
    /// A key ID outside 0...3 (two bits in the CCMP/GCMP header).
    case keyIDOutOfRange(UInt8)
    /// The MIC (CCMP) or tag (GCMP) does not verify: wrong key, or a modified frame.
    case authenticationFailed
    /// mbedTLS reported an error other than an authentication failure.
    case library(function: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .frameTooShort(let minimum, let actual):
            return "frame: expected at least \(minimum) octets, got \(actual)"
        case .invalidHeaderLength(let expected, let actual):
            return "CCMP/GCMP header: expected \(expected) octets, got \(actual)"
        case .notManagementFrame(let type):
            return "Frame Control Type is \(type), not 0 (management)"
        case .notDataFrame(let type):
            return "Frame Control Type is \(type), not 2 (data)"
        case .fourAddressFrame:
            return "Frame Control has To DS and From DS set: a four-address frame is not supported"
        case .htControlPresent:
            return "Frame Control +HTC/Order is set: an HT Control field is not supported"
        case .alreadyProtected:
            return "the Protected Frame bit is already set"
        case .notProtected:
            return "the Protected Frame bit is clear"
        case .extendedIVClear:
            return "the Ext IV bit of the CCMP/GCMP header is clear"
        case .invalidKeyLength(let cipher, let expected, let actual):
            return "\(cipher) temporal key: expected \(expected) octets, got \(actual)"
        case .packetNumberOutOfRange(let pn):
            return "packet number \(pn) does not fit in 48 bits"
        case .keyIDOutOfRange(let keyID):
            return "key ID \(keyID) is not in 0...3"
        case .authenticationFailed:
            return "the MIC does not verify"
        case .library(let function, let code, let message):
            return "\(function) failed with mbedTLS error -0x\(String(-Int(code), radix: 16)): \(message)"
        }
    }
}

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

/// Receive-side replay detection for one temporal key (IEEE 802.11-2020 12.5.3.4.4 for CCMP,
/// 12.5.5.4.4 for GCMP): a frame is accepted only if its PN is strictly greater than the
/// highest PN accepted so far under that key.
///
/// The counter starts at 0, as the standard initializes it when the key is installed, so a
/// PN of 0 is never accepted (transmitters start at 1). Use one counter per key and per
/// peer; a new key needs a new counter.
public struct ReplayCounter: Hashable, Sendable {
    /// The highest PN accepted so far (0 before the first frame).
    public private(set) var highestAccepted: UInt64

    public init() {
        highestAccepted = 0
    }

    /// True, and remembers `pn`, when `pn` is greater than every PN accepted before and fits
    /// in 48 bits; false (counter unchanged) for a replayed or out-of-order frame.
    public mutating func accept(_ pn: UInt64) -> Bool {
        guard pn > highestAccepted, pn <= ProtectionHeader.maximumPacketNumber else { return false }
        highestAccepted = pn
        return true
    }
}

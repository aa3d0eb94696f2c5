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

/// The 802.11 Frame Control field (IEEE 802.11-2020 9.2.4.1), the first two octets of every
/// frame, little-endian.
///
/// Kept as the raw 16-bit value so that every bit, including ones a frame type leaves
/// reserved, survives a round trip; the sub-fields are computed views.
public struct FrameControl: Hashable, Sendable, WireCodable, WireDescribable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The Type sub-field (b2-b3).
    public enum FrameType: UInt8, Hashable, Sendable {
        case management = 0
        case control = 1
        case data = 2
        case `extension` = 3

        public var name: String {
            switch self {
            case .management: "Management"
            case .control: "Control"
            case .data: "Data"
            case .extension: "Extension"
            }
        }
    }

    /// A management frame of `subtype` with every flag clear (nan-wire-reference.md 1.1:
    /// `D0 00` action, `80 00` beacon, `B0 00` authentication).
    public static func management(_ subtype: ManagementSubtype, protected: Bool = false) -> FrameControl {
        FrameControl(rawValue: UInt16(subtype.rawValue & 0x0F) << 4 | (protected ? 0x4000 : 0))
    }

    /// The Protocol Version sub-field (b0-b1), 0 for every 802.11 frame in use.
    public var protocolVersion: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x03) }
    public var type: FrameType { FrameType(rawValue: UInt8(truncatingIfNeeded: (rawValue >> 2) & 0x03)) ?? .management }
    /// The Subtype sub-field (b4-b7); its meaning depends on ``type``.
    public var subtype: UInt8 { UInt8(truncatingIfNeeded: (rawValue >> 4) & 0x0F) }
    public var toDS: Bool { bit(8) }
    public var fromDS: Bool { bit(9) }
    public var moreFragments: Bool { bit(10) }
    public var retry: Bool { bit(11) }
    public var powerManagement: Bool { bit(12) }
    public var moreData: Bool { bit(13) }
    /// Set when the body is encrypted (CCMP/GCMP); then the body is ciphertext.
    public var isProtected: Bool {
        get { bit(14) }
        set { setBit(14, newValue) }
    }
    /// +HTC/Order (b15): in a management frame, an HT Control field follows the header
    /// (IEEE 802.11-2020 9.2.4.1.10).
    public var htcOrder: Bool { bit(15) }

    /// The management subtype, when ``type`` is management.
    public var managementSubtype: ManagementSubtype? {
        type == .management ? ManagementSubtype(rawValue: subtype) : nil
    }

    private func bit(_ n: UInt16) -> Bool { rawValue & (1 << n) != 0 }

    private mutating func setBit(_ n: UInt16, _ value: Bool) {
        if value { rawValue |= 1 << n } else { rawValue &= ~(1 << n) }
    }

    public init(from reader: inout WireReader) throws(WireError) {
        rawValue = try reader.readUInt16LE("Frame Control")
    }

    public func write(to writer: inout WireWriter) { writer.writeUInt16LE(rawValue) }

    public var decodedFields: [DecodedField] {
        let subtypeValue: DecodedValue =
            if let management = managementSubtype {
                .named(UInt64(subtype), management.name)
            } else {
                .unsigned(UInt64(subtype))
            }
        return [
            DecodedField("frameControl", "Frame Control", .bits(UInt64(rawValue), digits: 4)),
            DecodedField("protocolVersion", "Protocol Version", .unsigned(UInt64(protocolVersion))),
            DecodedField("type", "Type", .named(UInt64(type.rawValue), type.name)),
            DecodedField("subtype", "Subtype", subtypeValue),
            DecodedField("toDS", "To DS", .flag(toDS)),
            DecodedField("fromDS", "From DS", .flag(fromDS)),
            DecodedField("moreFragments", "More Fragments", .flag(moreFragments)),
            DecodedField("retry", "Retry", .flag(retry)),
            DecodedField("powerManagement", "Power Management", .flag(powerManagement)),
            DecodedField("moreData", "More Data", .flag(moreData)),
            DecodedField("protectedFrame", "Protected Frame", .flag(isProtected)),
            DecodedField("htcOrder", "+HTC/Order", .flag(htcOrder)),
        ]
    }
}

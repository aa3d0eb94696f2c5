/// One 802.11 frame as a capture holds it: from Frame Control to the end of the body, no
/// FCS. Management frames are decoded (``ManagementFrame``); control, data and extension
/// frames are listed with their Frame Control and kept as octets.
///
/// Parsing never fails on a well-formed frame that is not NAN; it fails (with a
/// ``WireError``) on a truncated header or on a NAN frame whose content is malformed.
public enum IEEE80211Frame: Hashable, Sendable, WireCodable, WireDescribable {
    case management(ManagementFrame)
    /// A control, data or extension frame: the octets after Frame Control.
    case notManagement(frameControl: FrameControl, rest: [UInt8])

    public static let structureName = "802.11 frame"

    /// Parses a whole frame.
    public init(bytes: some Collection<UInt8>) throws(WireError) {
        try self.init(wireBytes: bytes, structure: Self.structureName)
    }

    public init(from reader: inout WireReader) throws(WireError) {
        guard let frameControl = FrameControl(peekingAt: reader.peek(2)) else {
            throw reader.error(.truncated(need: 2, have: reader.remaining), field: "Frame Control")
        }
        if frameControl.type == .management {
            self = .management(try ManagementFrame(from: &reader))
        } else {
            _ = try reader.readUInt16LE("Frame Control")
            self = .notManagement(frameControl: frameControl, rest: reader.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        switch self {
        case .management(let frame): frame.write(to: &writer)
        case .notManagement(let frameControl, let rest):
            frameControl.write(to: &writer)
            writer.write(rest)
        }
    }

    public var frameControl: FrameControl {
        switch self {
        case .management(let frame): frame.header.frameControl
        case .notManagement(let frameControl, _): frameControl
        }
    }

    /// The management frame, if this is one.
    public var managementFrame: ManagementFrame? {
        if case .management(let frame) = self { frame } else { nil }
    }

    public var decodedFields: [DecodedField] {
        switch self {
        case .management(let frame): frame.decodedFields
        case .notManagement(let frameControl, let rest):
            [
                DecodedField("frameControl", "Frame Control", .fields(frameControl.decodedFields)),
                DecodedField("raw", "Rest of Frame", .bytes(rest)),
            ]
        }
    }
}

extension FrameControl {
    init?(peekingAt octets: ArraySlice<UInt8>) {
        guard octets.count == 2, let low = octets.first, let high = octets.last else { return nil }
        self.init(rawValue: UInt16(high) << 8 | UInt16(low))
    }
}

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

/// The Subtype of a management frame (IEEE 802.11-2020 Table 9-1). An open set: values
/// without a name are kept.
public struct ManagementSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    public static let associationRequest = Self(rawValue: 0)
    public static let associationResponse = Self(rawValue: 1)
    public static let reassociationRequest = Self(rawValue: 2)
    public static let reassociationResponse = Self(rawValue: 3)
    public static let probeRequest = Self(rawValue: 4)
    public static let probeResponse = Self(rawValue: 5)
    public static let timingAdvertisement = Self(rawValue: 6)
    public static let beacon = Self(rawValue: 8)
    public static let atim = Self(rawValue: 9)
    public static let disassociation = Self(rawValue: 10)
    public static let authentication = Self(rawValue: 11)
    public static let deauthentication = Self(rawValue: 12)
    public static let action = Self(rawValue: 13)
    public static let actionNoAck = Self(rawValue: 14)

    public var name: String {
        switch rawValue {
        case 0: "Association Request"
        case 1: "Association Response"
        case 2: "Reassociation Request"
        case 3: "Reassociation Response"
        case 4: "Probe Request"
        case 5: "Probe Response"
        case 6: "Timing Advertisement"
        case 8: "Beacon"
        case 9: "ATIM"
        case 10: "Disassociation"
        case 11: "Authentication"
        case 12: "Deauthentication"
        case 13: "Action"
        case 14: "Action No Ack"
        default: "Reserved"
        }
    }
}

/// The Sequence Control field (IEEE 802.11-2020 9.2.4.4): Fragment Number (b0-b3) and
/// Sequence Number (b4-b15), little-endian.
public struct SequenceControl: Hashable, Sendable, WireCodable, WireDescribable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `sequenceNumber` keeps its low 12 bits and `fragmentNumber` its low 4 bits.
    public init(sequenceNumber: UInt16, fragmentNumber: UInt8 = 0) {
        rawValue = (sequenceNumber & 0x0FFF) << 4 | UInt16(fragmentNumber & 0x0F)
    }

    public var fragmentNumber: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x000F) }
    public var sequenceNumber: UInt16 { rawValue >> 4 }

    public init(from reader: inout WireReader) throws(WireError) {
        rawValue = try reader.readUInt16LE("Sequence Control")
    }

    public func write(to writer: inout WireWriter) { writer.writeUInt16LE(rawValue) }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("sequenceControl", "Sequence Control", .bits(UInt64(rawValue), digits: 4)),
            DecodedField("fragmentNumber", "Fragment Number", .unsigned(UInt64(fragmentNumber))),
            DecodedField("sequenceNumber", "Sequence Number", .unsigned(UInt64(sequenceNumber))),
        ]
    }
}

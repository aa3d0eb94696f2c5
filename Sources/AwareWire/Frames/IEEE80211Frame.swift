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

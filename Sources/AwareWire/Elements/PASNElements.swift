/// The PASN Parameters element (ID 255, Element ID Extension 100; IEEE 802.11-2020
/// 9.4.2.304; nan-wire-reference.md 3.4.1, item 4):
/// `Control (1) | Wrapped Data Format (1) | [Comeback Info] | [Group (2) | Key Length (1) | Key]`.
/// Control b0 = Comeback Info present, b1 = Group and Key present, b2-b7 reserved (kept).
///
/// Comeback Info starts with Comeback After only in frames from the responder, so a parser
/// must be told the sender (``init(from:fromResponder:)``); the plain ``init(from:)`` reads
/// the initiator's form (Authentication transaction sequence 1 or 3).
public struct PASNParametersElement: Hashable, Sendable, WireCodable, WireDescribable {
    public static let extensionID: UInt8 = 100
    public static let structureName = "PASN Parameters element"

    public var wrappedDataFormat: WrappedDataFormat
    public var comebackInfo: PASNComebackInfo?
    public var ephemeralKey: PASNEphemeralKey?
    /// Control b2-b7 as received (reserved).
    public var reservedControlBits: UInt8

    public init(
        wrappedDataFormat: WrappedDataFormat,
        comebackInfo: PASNComebackInfo? = nil,
        ephemeralKey: PASNEphemeralKey? = nil,
        reservedControlBits: UInt8 = 0
    ) {
        self.wrappedDataFormat = wrappedDataFormat
        self.comebackInfo = comebackInfo
        self.ephemeralKey = ephemeralKey
        self.reservedControlBits = reservedControlBits & 0xFC
    }

    /// The Control field as written.
    public var control: UInt8 {
        reservedControlBits & 0xFC | (comebackInfo == nil ? 0 : 0x01) | (ephemeralKey == nil ? 0 : 0x02)
    }

    public init(from reader: inout WireReader) throws(WireError) {
        try self.init(from: &reader, fromResponder: false)
    }

    public init(from reader: inout WireReader, fromResponder: Bool) throws(WireError) {
        var information = try ElementFragments.read(
            from: &reader,
            expecting: InformationElement.extensionID,
            extensionID: Self.extensionID,
            structure: Self.structureName
        )
        try self.init(information: &information, fromResponder: fromResponder)
        try information.expectEnd()
    }

    /// Parses the information after the Element ID Extension; the caller checks the end.
    public init(information reader: inout WireReader, fromResponder: Bool) throws(WireError) {
        reader.structure = Self.structureName
        let control = try reader.readUInt8("Control")
        wrappedDataFormat = WrappedDataFormat(rawValue: try reader.readUInt8("Wrapped Data Format"))
        comebackInfo = control & 0x01 != 0 ? try PASNComebackInfo(from: &reader, fromResponder: fromResponder) : nil
        ephemeralKey = control & 0x02 != 0 ? try PASNEphemeralKey(from: &reader) : nil
        reservedControlBits = control & 0xFC
    }

    /// The information octets, Element ID Extension first.
    public var information: [UInt8] {
        var writer = WireWriter()
        writer.write(Self.extensionID)
        writer.write(control)
        writer.write(wrappedDataFormat.rawValue)
        comebackInfo?.write(to: &writer)
        ephemeralKey?.write(to: &writer)
        return writer.bytes
    }

    public func write(to writer: inout WireWriter) {
        ElementFragments.write(id: InformationElement.extensionID, information: information, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("control", "Control", .bits(UInt64(control), digits: 2)),
            DecodedField("comebackInfoPresent", "Comeback Info Present", .flag(comebackInfo != nil)),
            DecodedField("groupAndKeyPresent", "Group and Key Present", .flag(ephemeralKey != nil)),
            DecodedField(
                "wrappedDataFormat",
                "Wrapped Data Format",
                .named(UInt64(wrappedDataFormat.rawValue), wrappedDataFormat.name)
            ),
        ]
        if let comebackInfo {
            fields.append(DecodedField("comebackInfo", "Comeback Info", .fields(comebackInfo.decodedFields)))
        }
        if let ephemeralKey {
            fields.append(
                DecodedField("ephemeralKey", "Group and Ephemeral Public Key", .fields(ephemeralKey.decodedFields))
            )
        }
        return fields
    }
}

/// The Comeback Info field of the PASN Parameters element (IEEE 802.11-2020 9.4.2.304):
/// `[Comeback After (2, LE, TU)] | Cookie Length (1) | Cookie`.
///
/// Comeback After is present only in frames from the responder (the AP side): hostap
/// `wpa_pasn_parse_parameter_ie` reads it only when `from_ap` is set. The element's octets
/// alone cannot tell, so the parser is told who sent the frame.
public struct PASNComebackInfo: Hashable, Sendable, WireDescribable {
    /// Time units to wait before retrying; present exactly when the responder sent it.
    public var comebackAfter: UInt16?
    public var cookie: [UInt8]

    /// `cookie` must be at most 255 octets.
    public init(comebackAfter: UInt16?, cookie: [UInt8]) {
        precondition(cookie.count <= 0xFF, "a PASN comeback cookie is at most 255 octets")
        self.comebackAfter = comebackAfter
        self.cookie = cookie
    }

    init(from reader: inout WireReader, fromResponder: Bool) throws(WireError) {
        comebackAfter = fromResponder ? try reader.readUInt16LE("Comeback After") : nil
        let length = Int(try reader.readUInt8("Cookie Length"))
        cookie = try reader.readBytes(length, "Cookie")
    }

    func write(to writer: inout WireWriter) {
        if let comebackAfter { writer.writeUInt16LE(comebackAfter) }
        writer.withLength8 { $0.write(cookie) }
    }

    public var decodedFields: [DecodedField] {
        var fields: [DecodedField] = []
        if let comebackAfter {
            fields.append(DecodedField("comebackAfter", "Comeback After (TU)", .unsigned(UInt64(comebackAfter))))
        }
        fields.append(DecodedField("cookieLength", "Cookie Length", .unsigned(UInt64(cookie.count))))
        fields.append(DecodedField("cookie", "Cookie", .bytes(cookie)))
        return fields
    }
}

/// The Finite Cyclic Group and Ephemeral Public Key of the PASN Parameters element
/// (nan-wire-reference.md 3.4.1): `Group (2, LE) | Key Length (1) | Key`, where the key is
/// `0x02 || X` (compressed, RFC 5480) as hostap sends it, or `0x04 || X || Y`.
public struct PASNEphemeralKey: Hashable, Sendable, WireDescribable {
    /// The IANA group number: 19 (P-256) or 20 (P-384) in NAN pairing.
    public var group: UInt16
    public var publicKey: [UInt8]

    /// `publicKey` must be at most 255 octets.
    public init(group: UInt16, publicKey: [UInt8]) {
        precondition(publicKey.count <= 0xFF, "a PASN ephemeral key is at most 255 octets")
        self.group = group
        self.publicKey = publicKey
    }

    init(from reader: inout WireReader) throws(WireError) {
        group = try reader.readUInt16LE("Finite Cyclic Group")
        let length = Int(try reader.readUInt8("Key Length"))
        publicKey = try reader.readBytes(length, "Ephemeral Public Key")
    }

    func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(group)
        writer.withLength8 { $0.write(publicKey) }
    }

    /// The point encoding octet (RFC 5480): 2 or 3 compressed, 4 uncompressed.
    public var encoding: DecodedValue? {
        guard let first = publicKey.first else { return nil }
        let name =
            switch first {
            case 0x02: "Compressed, even y"
            case 0x03: "Compressed, odd y"
            case 0x04: "Uncompressed"
            default: "Unknown"
            }
        return .named(UInt64(first), name)
    }

    public var decodedFields: [DecodedField] {
        let groupName =
            switch group {
            case 19: "P-256"
            case 20: "P-384"
            case 21: "P-521"
            default: "Other"
            }
        var fields = [
            DecodedField("group", "Finite Cyclic Group", .named(UInt64(group), groupName)),
            DecodedField("keyLength", "Key Length", .unsigned(UInt64(publicKey.count))),
        ]
        if let encoding { fields.append(DecodedField("keyEncoding", "Key Encoding", encoding)) }
        fields.append(DecodedField("ephemeralPublicKey", "Ephemeral Public Key", .bytes(publicKey)))
        fields += coordinateFields
        return fields
    }

    /// The point's coordinates after the encoding octet (RFC 5480): `x` for a compressed
    /// key, `x` and `y` for an uncompressed one. hostap's key is `0x02 || x`, and x is what
    /// the DH computation uses (hostap session A, wire_locations `public.x`).
    private var coordinateFields: [DecodedField] {
        guard let first = publicKey.first else { return [] }
        let point = publicKey.dropFirst()
        switch first {
        case 0x02, 0x03:
            return [DecodedField("x", "X Coordinate", .bytes(Array(point)))]
        case 0x04 where !point.isEmpty && point.count % 2 == 0:
            let half = point.startIndex + point.count / 2
            return [
                DecodedField("x", "X Coordinate", .bytes(Array(point[..<half]))),
                DecodedField("y", "Y Coordinate", .bytes(Array(point[half...]))),
            ]
        default:
            return []
        }
    }
}

/// The Wrapped Data Format of the PASN Parameters element (IEEE 802.11-2020 9.4.2.304;
/// nan-wire-reference.md 3.4.1): what the Wrapped Data element holds.
public enum WrappedDataFormat: Hashable, Sendable {
    case noWrappedData
    case ftAuthentication
    case filsSharedKey
    case sae
    case reserved(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .noWrappedData
        case 1: self = .ftAuthentication
        case 2: self = .filsSharedKey
        case 3: self = .sae
        default: self = .reserved(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .noWrappedData: 0
        case .ftAuthentication: 1
        case .filsSharedKey: 2
        case .sae: 3
        case .reserved(let value): value
        }
    }

    public var name: String {
        switch self {
        case .noWrappedData: "No wrapped data"
        case .ftAuthentication: "FT authentication"
        case .filsSharedKey: "FILS shared key authentication"
        case .sae: "SAE authentication"
        case .reserved: "Reserved"
        }
    }
}

/// The Wrapped Data element (ID 255, Element ID Extension 8; IEEE 802.11-2020 9.4.2.293):
/// in PASN with SAE it carries the SAE commit/confirm (nan-wire-reference.md 3.4.1, item 2).
///
/// Data over 254 octets does not fit one element: the element then carries 254 data octets
/// after the extension ID (Length 255) and the rest follows in Fragment elements; both the
/// reader and the writer handle that (``ElementFragments``).
public struct WrappedDataElement: ExtensionElementBody {
    public static let extensionID: UInt8 = 8
    public static let structureName = "Wrapped Data element"

    public var data: [UInt8]

    public init(data: [UInt8]) { self.data = data }

    /// Parses the information after the Element ID Extension.
    public init(information reader: inout WireReader) {
        reader.structure = Self.structureName
        data = reader.readRemaining()
    }

    public func writeInformation(to writer: inout WireWriter) {
        writer.write(data)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("dataLength", "Data Length", .unsigned(UInt64(data.count))),
            DecodedField("wrappedData", "Wrapped Data", .bytes(data)),
        ]
    }
}

/// The MIC element of PASN frames 2 and 3 (ID 140; nan-wire-reference.md 3.4.1, item 7):
/// the MIC alone, 16 octets (SHA-256) or 24 octets (SHA-384) (3.4.2).
public struct MICElement: ElementBody {
    public static let elementID: UInt8 = 140
    public static let structureName = "MIC element"

    public private(set) var mic: [UInt8]

    /// nil unless `mic` is 16 or 24 octets.
    public init?(mic: [UInt8]) {
        guard mic.count == 16 || mic.count == 24 else { return nil }
        self.mic = mic
    }

    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let length = reader.remaining
        guard length == 16 || length == 24 else {
            throw reader.error(.invalidValue("a PASN MIC is 16 or 24 octets, not \(length)"), field: "MIC")
        }
        mic = reader.readRemaining()
    }

    public var information: [UInt8] { mic }

    public var decodedFields: [DecodedField] { [DecodedField("mic", "MIC", .bytes(mic))] }
}

/// The Supported Groups element (ID 255, Element ID Extension 161): a list of LE16 IANA
/// group numbers. hostap adds it to PASN frame 2 (`FF 03 A1 13 00`, nan-wire-reference.md
/// 3.4.1, item 6).
public struct SupportedGroupsElement: ExtensionElementBody {
    public static let extensionID: UInt8 = 161
    public static let structureName = "Supported Groups element"

    public var groups: [UInt16]

    public init(groups: [UInt16]) { self.groups = groups }

    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        guard reader.remaining % 2 == 0 else {
            throw reader.error(.invalidValue("the group list has an odd number of octets"), field: "Supported Groups")
        }
        var list: [UInt16] = []
        while !reader.isAtEnd { list.append(try reader.readUInt16LE("Group")) }
        groups = list
    }

    public func writeInformation(to writer: inout WireWriter) {
        for group in groups { writer.writeUInt16LE(group) }
    }

    public var decodedFields: [DecodedField] {
        [DecodedField("groups", "Supported Groups", .list(groups.map { .unsigned(UInt64($0)) }))]
    }
}

/// Shared-Key Descriptor attribute (SKDA, 0x24) (nan-wire-reference.md 2.15):
/// Publish ID (1) | IEEE 802.11 RSNA key descriptor starting at Descriptor Type.
///
/// Carries the NDP 4-way handshake messages m1..m4 (4.2) and, in a Follow-up after
/// pairing, the wrapped NIK (3.6). The descriptor runs to the end of the attribute, which
/// is what lets a receiver tell whether it has a Key MIC field (3.9, ``KeyMICLayout``).
public struct SharedKeyDescriptorAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.sharedKeyDescriptor

    public var publishID: UInt8
    public var keyDescriptor: RSNAKeyDescriptor

    public init(publishID: UInt8, keyDescriptor: RSNAKeyDescriptor) {
        self.publishID = publishID
        self.keyDescriptor = keyDescriptor
    }

    public init(from reader: inout WireReader) throws(WireError) {
        publishID = try reader.readUInt8("Publish ID")
        keyDescriptor = try RSNAKeyDescriptor(from: &reader)
    }

    /// Parses with a known MIC layout instead of working it out from the lengths.
    public init(from reader: inout WireReader, micLayout: KeyMICLayout) throws(WireError) {
        publishID = try reader.readUInt8("Publish ID")
        keyDescriptor = try RSNAKeyDescriptor(from: &reader, micLayout: micLayout)
    }

    public func write(to writer: inout WireWriter) {
        writer.write(publishID)
        keyDescriptor.write(to: &writer)
    }

    /// The octet offset of the Key MIC field from the start of the attribute body.
    public static let micOffsetInBody = 1 + RSNAKeyDescriptor.micOffset

    public var decodedFields: [DecodedField] {
        [
            DecodedField("publishID", "Publish ID", .unsigned(UInt64(publishID))),
            DecodedField("keyDescriptor", "Key Descriptor", .fields(keyDescriptor.decodedFields)),
        ]
    }
}

/// The IEEE 802.11 RSNA key descriptor inside a Shared-Key Descriptor attribute
/// (nan-wire-reference.md 2.15, 3.6, 3.9): an EAPOL-Key body without the EAPOL header.
/// ```
/// Descriptor Type (1) = 2 | Key Information (2, BE) | Key Length (2, BE) |
/// Key Replay Counter (8, BE) | Key Nonce (32) | EAPOL-Key IV (16) | Key RSC (8) |
/// Reserved / Key ID (8) | [Key MIC (16 or 24)] | Key Data Length (2, BE) | Key Data
/// ```
/// The Key MIC field is absent in hostap's NIK message and present elsewhere (3.9); see
/// ``KeyMICLayout``. Serialization writes the layout the value carries.
public struct RSNAKeyDescriptor: Hashable, Sendable, WireCodable, WireDescribable {
    /// hostap `NAN_KEY_DESC`: the only descriptor type NAN uses.
    public static let ieee80211DescriptorType: UInt8 = 2
    /// Octets from Descriptor Type through Reserved / Key ID.
    public static let fixedLength = 1 + 2 + 2 + 8 + 32 + 16 + 8 + 8

    public var keyInformation: EAPOLKeyInformation
    public var keyLength: UInt16
    public var replayCounter: UInt64
    /// 32 octets.
    public var nonce: [UInt8]
    /// 16 octets.
    public var iv: [UInt8]
    /// 8 octets.
    public var rsc: [UInt8]
    /// Reserved / Key ID, 8 octets.
    public var keyID: [UInt8]
    public var micLayout: KeyMICLayout
    /// `micLayout.length` octets (empty when absent). On write a shorter value is zero-padded
    /// and a longer one cut, so the wire layout always follows ``micLayout``.
    public var mic: [UInt8]
    public var keyData: [UInt8]

    /// Fixed-width fields default to zeros; `mic` defaults to zeros of the layout's length.
    public init(
        keyInformation: EAPOLKeyInformation,
        keyLength: UInt16 = 0,
        replayCounter: UInt64 = 0,
        nonce: [UInt8] = Array(repeating: 0, count: 32),
        iv: [UInt8] = Array(repeating: 0, count: 16),
        rsc: [UInt8] = Array(repeating: 0, count: 8),
        keyID: [UInt8] = Array(repeating: 0, count: 8),
        micLayout: KeyMICLayout,
        mic: [UInt8]? = nil,
        keyData: [UInt8] = []
    ) {
        precondition(nonce.count == 32 && iv.count == 16 && rsc.count == 8 && keyID.count == 8, "fixed-width field")
        precondition(mic == nil || mic?.count == micLayout.length, "Key MIC length must match the layout")
        precondition(keyData.count <= 0xFFFF, "Key Data Length is two octets")
        self.keyInformation = keyInformation
        self.keyLength = keyLength
        self.replayCounter = replayCounter
        self.nonce = nonce
        self.iv = iv
        self.rsc = rsc
        self.keyID = keyID
        self.micLayout = micLayout
        self.mic = mic ?? Array(repeating: 0, count: micLayout.length)
        self.keyData = keyData
    }

    /// The MIC layouts under which `octets` (everything after Reserved / Key ID to the end
    /// of the attribute) is exactly `[MIC] | Key Data Length | Key Data`, in
    /// ``KeyMICLayout/detectionOrder``.
    public static func consistentMICLayouts(afterKeyID octets: some Collection<UInt8>) -> [KeyMICLayout] {
        let bytes = Array(octets)
        return KeyMICLayout.detectionOrder.filter { layout in
            let at = layout.length
            guard bytes.count >= at + 2 else { return false }
            let keyDataLength = Int(bytes[at]) << 8 | Int(bytes[at + 1])
            return bytes.count == at + 2 + keyDataLength
        }
    }

    /// Reads a descriptor that runs to the end of `reader`, working out the MIC layout
    /// from the lengths: the first of 16, 24, absent under which Key Data Length matches
    /// the remaining octets exactly. None fitting is a length mismatch, reported against
    /// the Key Data Length a 16-octet MIC would put (or, with too few octets for one,
    /// against the MIC-less position).
    public init(from reader: inout WireReader) throws(WireError) {
        try self.init(fixedFieldsFrom: &reader)
        let rest = reader.peek(reader.remaining)
        guard let layout = Self.consistentMICLayouts(afterKeyID: rest).first else {
            let at = rest.count >= KeyMICLayout.octets16.length + 2 ? KeyMICLayout.octets16.length : 0
            guard rest.count >= at + 2 else {
                throw reader.error(.truncated(need: 2, have: rest.count), field: "Key Data Length")
            }
            let start = rest.startIndex + at
            let declared = Int(rest[start]) << 8 | Int(rest[start + 1])
            throw reader.error(
                .lengthMismatch(declared: declared, actual: rest.count - at - 2),
                field: "Key Data Length",
                at: reader.offset + at
            )
        }
        try readTail(from: &reader, micLayout: layout)
    }

    /// Reads a descriptor whose MIC layout is known (for example from the negotiated CSID).
    public init(from reader: inout WireReader, micLayout: KeyMICLayout) throws(WireError) {
        try self.init(fixedFieldsFrom: &reader)
        try readTail(from: &reader, micLayout: micLayout)
    }

    private init(fixedFieldsFrom reader: inout WireReader) throws(WireError) {
        let typeOffset = reader.offset
        let type = try reader.readUInt8("Descriptor Type")
        guard type == Self.ieee80211DescriptorType else {
            throw reader.error(
                .invalidValue("descriptor type \(type) is not 2 (IEEE 802.11 key descriptor)"),
                field: "Descriptor Type",
                at: typeOffset
            )
        }
        keyInformation = EAPOLKeyInformation(rawValue: try reader.readUInt16BE("Key Information"))
        keyLength = try reader.readUInt16BE("Key Length")
        replayCounter = try reader.readUInt64BE("Key Replay Counter")
        nonce = try reader.readBytes(32, "Key Nonce")
        iv = try reader.readBytes(16, "EAPOL-Key IV")
        rsc = try reader.readBytes(8, "Key RSC")
        keyID = try reader.readBytes(8, "Key ID")
        micLayout = .absent
        mic = []
        keyData = []
    }

    private mutating func readTail(from reader: inout WireReader, micLayout: KeyMICLayout) throws(WireError) {
        self.micLayout = micLayout
        mic = try reader.readBytes(micLayout.length, "Key MIC")
        let length = Int(try reader.readUInt16BE("Key Data Length"))
        var data = try reader.subReader(length: length, field: "Key Data Length")
        keyData = data.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.write(Self.ieee80211DescriptorType)
        writer.writeUInt16BE(keyInformation.rawValue)
        writer.writeUInt16BE(keyLength)
        writer.writeUInt64BE(replayCounter)
        Self.writeFixed(nonce, width: 32, to: &writer)
        Self.writeFixed(iv, width: 16, to: &writer)
        Self.writeFixed(rsc, width: 8, to: &writer)
        Self.writeFixed(keyID, width: 8, to: &writer)
        Self.writeFixed(mic, width: micLayout.length, to: &writer)
        writer.withLength16BE { $0.write(keyData) }
    }

    private static func writeFixed(_ bytes: [UInt8], width: Int, to writer: inout WireWriter) {
        writer.write(bytes.prefix(width))
        if bytes.count < width { writer.write(repeatElement(0, count: width - bytes.count)) }
    }

    /// The octet offset of the Key MIC field from the start of the descriptor, for MIC
    /// computation over a frame with the MIC zeroed (4.2).
    public static let micOffset = fixedLength

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField(
                "descriptorType",
                "Descriptor Type",
                .named(UInt64(Self.ieee80211DescriptorType), "IEEE 802.11 key descriptor")
            )
        ]
        fields += keyInformation.decodedFields
        fields += [
            DecodedField("keyLength", "Key Length", .unsigned(UInt64(keyLength))),
            DecodedField("keyReplayCounter", "Key Replay Counter", .unsigned(replayCounter)),
            DecodedField("keyNonce", "Key Nonce", .bytes(nonce)),
            DecodedField("eapolKeyIV", "EAPOL-Key IV", .bytes(iv)),
            DecodedField("keyRSC", "Key RSC", .bytes(rsc)),
            DecodedField("keyID", "Reserved / Key ID", .bytes(keyID)),
            DecodedField("micLayout", "Key MIC Layout", .named(UInt64(micLayout.length), micLayout.name)),
        ]
        if micLayout != .absent { fields.append(DecodedField("keyMIC", "Key MIC", .bytes(mic))) }
        fields.append(DecodedField("keyDataLength", "Key Data Length", .unsigned(UInt64(keyData.count))))
        fields.append(DecodedField("keyData", "Key Data", .bytes(keyData)))
        return fields
    }
}

/// The Key Information field (2, **big-endian**) of an IEEE 802.11 RSNA key descriptor
/// (nan-wire-reference.md 2.15, hostap wpa_common.h): b0-2 Key Descriptor Version
/// (0 = AKM-defined), b3 Key Type (1 = pairwise), b4-5 Key Index, b6 Install, b7 Key Ack,
/// b8 Key MIC, b9 Secure, b10 Error, b11 Request, b12 Encrypted Key Data, b13-15 reserved.
///
/// NAN values seen in hostap: NIK delivery 0x1088; NDP m1 0x0088, m2 0x0108, m3 0x03C8,
/// m4 0x0348 (+0x1000 with encrypted key data) (3.6, 4.2).
public struct EAPOLKeyInformation: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let pairwise = Self(rawValue: 1 << 3)
    public static let install = Self(rawValue: 1 << 6)
    public static let keyAck = Self(rawValue: 1 << 7)
    public static let keyMIC = Self(rawValue: 1 << 8)
    public static let secure = Self(rawValue: 1 << 9)
    public static let error = Self(rawValue: 1 << 10)
    public static let request = Self(rawValue: 1 << 11)
    public static let encryptedKeyData = Self(rawValue: 1 << 12)

    /// b0-2; 0 = AKM-defined, which NAN requires.
    public var descriptorVersion: UInt8 {
        get { UInt8(truncatingIfNeeded: rawValue) & 0x07 }
        set { rawValue = (rawValue & ~0x0007) | UInt16(newValue & 0x07) }
    }

    /// b4-5.
    public var keyIndex: UInt8 {
        get { UInt8(truncatingIfNeeded: rawValue >> 4) & 0x03 }
        set { rawValue = (rawValue & ~0x0030) | UInt16(newValue & 0x03) << 4 }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("keyInformation", "Key Information", .bits(UInt64(rawValue), digits: 4)),
            DecodedField(
                "keyDescriptorVersion",
                "Key Descriptor Version",
                .named(UInt64(descriptorVersion), descriptorVersion == 0 ? "AKM-defined" : "Other")
            ),
            DecodedField(
                "keyType",
                "Key Type",
                .named(contains(.pairwise) ? 1 : 0, contains(.pairwise) ? "Pairwise" : "Group")
            ),
            DecodedField("keyIndex", "Key Index", .unsigned(UInt64(keyIndex))),
            DecodedField("install", "Install", .flag(contains(.install))),
            DecodedField("keyAck", "Key Ack", .flag(contains(.keyAck))),
            DecodedField("keyMICBit", "Key MIC (bit 8)", .flag(contains(.keyMIC))),
            DecodedField("secure", "Secure", .flag(contains(.secure))),
            DecodedField("error", "Error", .flag(contains(.error))),
            DecodedField("request", "Request", .flag(contains(.request))),
            DecodedField("encryptedKeyData", "Encrypted Key Data", .flag(contains(.encryptedKeyData))),
        ]
    }
}

/// Whether a NAN key descriptor carries a Key MIC field, and how long it is
/// (nan-wire-reference.md 2.15, 3.9).
///
/// NDP m1..m4 carry one (16 octets for the -128 suites, 24 for the -256 suites), and so do
/// ESP-IDF's NIK messages; hostap's NIK message has none: Key ID is followed directly by
/// Key Data Length. The spec text was not available to settle it, so a receiver works it
/// out from the lengths (``RSNAKeyDescriptor/consistentMICLayouts(afterKeyID:)``).
public enum KeyMICLayout: Hashable, Sendable, CaseIterable {
    case absent
    case octets16
    case octets24

    public var length: Int {
        switch self {
        case .absent: 0
        case .octets16: 16
        case .octets24: 24
        }
    }

    /// The order a receiver tries the layouts in, and the preference when the lengths fit
    /// more than one: MIC-bearing layouts first, since every NDP message and ESP-IDF's NIK
    /// message carry a MIC; the MIC-less form is hostap's NIK message only.
    public static let detectionOrder: [KeyMICLayout] = [.octets16, .octets24, .absent]

    public var name: String {
        switch self {
        case .absent: "No Key MIC field"
        case .octets16: "16-octet Key MIC"
        case .octets24: "24-octet Key MIC"
        }
    }
}

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

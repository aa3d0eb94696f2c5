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

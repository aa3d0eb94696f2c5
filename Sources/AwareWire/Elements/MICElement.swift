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

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

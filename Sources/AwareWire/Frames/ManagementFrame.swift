/// An 802.11 management frame: the MAC header and its body, without FCS.
public struct ManagementFrame: Hashable, Sendable, WireCodable, WireDescribable {
    public var header: ManagementHeader
    public var body: ManagementFrameBody

    public init(header: ManagementHeader, body: ManagementFrameBody) {
        self.header = header
        self.body = body
    }

    /// Reads a header and a body that fills the rest of `reader`.
    public init(from reader: inout WireReader) throws(WireError) {
        header = try ManagementHeader(from: &reader)
        body = try ManagementFrameBody(from: &reader, frameControl: header.frameControl)
    }

    public func write(to writer: inout WireWriter) {
        header.write(to: &writer)
        body.write(to: &writer)
    }

    /// A short name, with the management subtype for frames that are not NAN
    /// ("Beacon (not NAN)", "Probe Request (not NAN)").
    public var summary: String {
        switch body {
        case .otherManagement, .otherAction:
            let subtype = header.frameControl.managementSubtype?.name ?? "Management"
            return "\(body.summary == "Management" ? subtype : body.summary) (not NAN)"
        case .protected:
            return "Protected \(header.frameControl.managementSubtype?.name ?? "Management") (encrypted)"
        default:
            return body.summary
        }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("header", "MAC Header", .fields(header.decodedFields)),
            DecodedField("frameKind", "Frame", .text(summary)),
            DecodedField("isNAN", "NAN Frame", .flag(body.isNAN)),
            DecodedField("body", "Frame Body", .fields(body.decodedFields)),
        ]
    }
}

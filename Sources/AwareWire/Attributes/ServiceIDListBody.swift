/// The body of the Service ID List (0x02) and Subscribe Service ID List (0x28) attributes
/// (nan-wire-reference.md 2.2): n x Service ID (6); a length that is not a multiple of 6 is
/// an error. The two attributes differ only in their ID and what the list means.
public protocol ServiceIDListBody: NANAttributeBody {
    var serviceIDs: [ServiceID] { get }
    init(serviceIDs: [ServiceID])
}

extension ServiceIDListBody {
    public init(from reader: inout WireReader) throws(WireError) {
        guard reader.remaining % ServiceID.length == 0 else {
            throw reader.error(
                .invalidValue("a list of \(reader.remaining) octets is not a multiple of 6"),
                field: "Service ID"
            )
        }
        var serviceIDs: [ServiceID] = []
        while !reader.isAtEnd {
            serviceIDs.append(try ServiceID(from: &reader))
        }
        self.init(serviceIDs: serviceIDs)
    }

    public func write(to writer: inout WireWriter) {
        for serviceID in serviceIDs { serviceID.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [DecodedField("serviceIDs", "Service IDs", .list(serviceIDs.map { .bytes($0.octets) }))]
    }
}

/// Service ID List: the services a device offers or seeks (nan-wire-reference.md 2.2, ID 0x02).
/// The body is n x Service ID (6); a length that is not a multiple of 6 is an error.
public struct ServiceIDListAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.serviceIDList

    public var serviceIDs: [ServiceID]

    public init(serviceIDs: [ServiceID]) {
        self.serviceIDs = serviceIDs
    }

    public init(from reader: inout WireReader) throws(WireError) {
        guard reader.remaining % ServiceID.length == 0 else {
            throw reader.error(
                .invalidValue("a list of \(reader.remaining) octets is not a multiple of 6"),
                field: "Service ID"
            )
        }
        serviceIDs = []
        while !reader.isAtEnd {
            serviceIDs.append(try ServiceID(from: &reader))
        }
    }

    public func write(to writer: inout WireWriter) {
        for serviceID in serviceIDs { serviceID.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [DecodedField("serviceIDs", "Service IDs", .list(serviceIDs.map { .bytes($0.octets) }))]
    }
}

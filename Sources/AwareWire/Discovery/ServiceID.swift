import AwareCore
import Crypto

/// A NAN Service ID: the first 6 octets of SHA-256 over the lower-cased service name
/// (nan-wire-reference.md 2.4; example vectors in 8.6).
public struct ServiceID: Hashable, Sendable, CustomStringConvertible {
    public static let length = 6

    public let octets: [UInt8]

    /// nil unless exactly six octets are given.
    public init?(_ octets: some Collection<UInt8>) {
        guard octets.count == Self.length else { return nil }
        self.octets = Array(octets)
    }

    /// Parses 12 hex digits (`3425f17bda31`).
    public init?(hex: String) {
        guard let bytes = HexString.decode(hex) else { return nil }
        self.init(bytes)
    }

    /// Hashes a service name the way hostap `nan_de_derive_service_id` and OpenNAN do: C
    /// `tolower()` on each byte (ASCII A-Z only; bytes >= 0x80 unchanged), no terminator.
    /// Whether the specification lowers beyond ASCII is an open question
    /// (nan-wire-reference.md 2.4 and 7.1); this follows the reference's recommendation.
    public init(serviceName: String) {
        let lowered = serviceName.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        octets = Array(SHA256.hash(data: lowered).prefix(Self.length))
    }

    /// The all-zero ID hostap uses for proximity-ranging publishes without a name (2.4).
    public static let zero = ServiceID(octets: [0, 0, 0, 0, 0, 0])

    private init(octets: [UInt8]) {
        self.octets = octets
    }

    /// 12 lower-case hex digits.
    public var description: String { HexString.encode(octets) }
}

extension ServiceID: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        octets = try reader.readBytes(Self.length, "Service ID")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(octets)
    }
}

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

/// Service ID List: the services a device offers or seeks (nan-wire-reference.md 2.2, ID 0x02).
/// The body is n x Service ID (6) (``ServiceIDListBody``).
public struct ServiceIDListAttribute: ServiceIDListBody {
    public static let attributeID = NANAttributeID.serviceIDList

    public var serviceIDs: [ServiceID]

    public init(serviceIDs: [ServiceID]) {
        self.serviceIDs = serviceIDs
    }
}

/// Subscribe Service ID List: the services a device subscribes to (nan-wire-reference.md 2.2, ID 0x28).
/// The body is n x Service ID (6) (``ServiceIDListBody``).
public struct SubscribeServiceIDListAttribute: ServiceIDListBody {
    public static let attributeID = NANAttributeID.subscribeServiceIDList

    public var serviceIDs: [ServiceID]

    public init(serviceIDs: [ServiceID]) {
        self.serviceIDs = serviceIDs
    }
}

/// Why a server refused a request. An open set: a code this bench does not name is kept and
/// shown as "Unknown", because the text that follows still explains it to a person.
public struct FileErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The server has no file of that name.
    public static let notFound = Self(rawValue: 1)
    /// The requested offset is past the end of the file.
    public static let invalidOffset = Self(rawValue: 2)
    /// The request could not be parsed or arrived in the wrong order.
    public static let badRequest = Self(rawValue: 3)

    public var name: String {
        switch rawValue {
        case 1: "Not Found"
        case 2: "Invalid Offset"
        case 3: "Bad Request"
        default: "Unknown"
        }
    }

    public var description: String { "\(rawValue) (\(name))" }
}

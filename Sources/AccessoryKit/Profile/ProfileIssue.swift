/// One problem in a profile: where (a JSON path such as `services[0].name`), the offending value
/// when there is one, and the rule in plain words.
public struct ProfileIssue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `services[0].name`; the empty string is the whole profile.
    public var path: String
    /// The offending value as JSON (`"_drone_service._udp"`), when there is one to show.
    public var value: String?
    public var message: String

    public init(path: String, value: String? = nil, message: String) {
        self.path = path
        self.value = value
        self.message = message
    }

    /// `services[0].name: "_drone_service._udp" — only letters, digits and hyphens are allowed`
    public var description: String {
        let place = path.isEmpty ? "profile" : path
        if let value { return "\(place): \(value) — \(message)" }
        return "\(place): \(message)"
    }
}

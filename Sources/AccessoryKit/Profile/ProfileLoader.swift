import AwareCore
import Foundation

/// Reads accessory profiles: JSON syntax first (with line and column), then every rule of
/// Profiles/profile.schema.json and the semantic rules of docs/reference/profile-reference.md, reporting
/// all problems at once.
public enum ProfileLoader {
    public static func load(path: String) throws(ProfileError) -> AccessoryProfile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: "it is a directory, not a profile file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "the file exists but cannot be read (check its permissions)")
        }
        return try load(data: data)
    }

    public static func load(data: Data) throws(ProfileError) -> AccessoryProfile {
        try load(bytes: [UInt8](data))
    }

    public static func load(bytes: [UInt8]) throws(ProfileError) -> AccessoryProfile {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch {
            // Nothing but whitespace: say what the file should hold.
            let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            let empty = text.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            let reason = empty ? "the file is empty; a profile is a JSON object" : error.reason
            throw .malformedJSON(line: error.line, column: error.column, reason: reason)
        }
        switch ProfileValidator.validate(root) {
        case .success(let profile): return profile
        case .failure(let error): throw error
        }
    }

    /// The problems in a profile, or an empty list for a good one.
    public static func issues(in data: Data) -> [ProfileIssue] {
        do {
            _ = try load(data: data)
            return []
        } catch {
            return error.issues
        }
    }
}

// MARK: - ProfileError

/// Why a profile could not be loaded.
public enum ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(path: String, reason: String)
    /// The file is not JSON; line and column are 1-based.
    case malformedJSON(line: Int, column: Int, reason: String)
    /// The JSON breaks one or more rules; every problem found is listed.
    case invalid([ProfileIssue])

    /// The problems as issues (one for a file that cannot be read or parsed).
    public var issues: [ProfileIssue] {
        switch self {
        case .unreadable(_, let reason): return [ProfileIssue(path: "", message: reason)]
        case .malformedJSON(let line, let column, let reason):
            return [ProfileIssue(path: "", message: "not valid JSON at line \(line), column \(column): \(reason)")]
        case .invalid(let issues): return issues
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read profile \(path): \(reason)"
        case .malformedJSON(let line, let column, let reason):
            return "not valid JSON at line \(line), column \(column): \(reason)"
        case .invalid(let issues): return issues.map(\.description).joined(separator: "\n")
        }
    }
}

// MARK: - ProfileError+Text

extension ProfileError {
    /// What a person reads when `file` does not load: one line per problem, naming the JSON
    /// path and the rule, then a count; or where the JSON is broken; or why it cannot be read.
    public func lines(file: String) -> [String] {
        switch self {
        case .unreadable:
            return ["\(self)"]
        case .malformedJSON(let line, let column, let reason):
            return ["\(file):\(line):\(column): not valid JSON: \(reason)"]
        case .invalid(let issues):
            let count = issues.count
            return issues.map(\.description) + [
                "\(file): \(count) problem\(count == 1 ? "" : "s"); see docs/reference/profile-reference.md"
            ]
        }
    }
}

// MARK: - ProfileIssue

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

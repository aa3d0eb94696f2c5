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
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .malformedJSON(line: error.line, column: error.column, reason: error.reason)
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

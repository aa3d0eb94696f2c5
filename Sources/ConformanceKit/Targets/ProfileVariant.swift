import AwareCore
import Foundation

/// A change to the accessory's profile that one test needs (a TTL on a service, a second
/// service, another publish type). ConformanceKit does not know AccessoryKit's profile
/// types, so variants are edits to the profile's JSON: the embedded target hands the edited
/// document to its factory, the spawn target writes it to a file for `accessory-emu`.
public struct ProfileVariant: Hashable, Sendable, CustomStringConvertible {
    public enum Edit: Hashable, Sendable {
        /// Sets `services[index].key` to a JSON value given as JSON text.
        case setServiceField(index: Int, key: String, json: String)
        /// Removes `services[index].key`.
        case removeServiceField(index: Int, key: String)
        /// Appends a service given as JSON text.
        case addService(json: String)
        /// Sets a key outside `services`, by its path from the root (`["pairing", "pin",
        /// "lockoutSeconds"]`), creating the objects on the way.
        case setField(path: [String], json: String)
    }

    public var edits: [Edit]

    public init(_ edits: [Edit]) {
        self.edits = edits
    }

    public var description: String {
        edits.map { edit in
            switch edit {
            case .setServiceField(let index, let key, let json): "services[\(index)].\(key) = \(json)"
            case .removeServiceField(let index, let key): "remove services[\(index)].\(key)"
            case .addService(let json): "add service \(json)"
            case .setField(let path, let json): "\(path.joined(separator: ".")) = \(json)"
            }
        }.joined(separator: "; ")
    }

    /// The profile document with the edits applied, written compactly with sorted keys.
    public func apply(to document: Data) throws(ProfileVariantError) -> Data {
        guard let members = try? JSONValue(parsing: document).objectValue,
            var services = members.first(where: { $0.0 == "services" })?.1.arrayValue
        else { throw .notAProfile }
        for edit in edits {
            switch edit {
            case .setServiceField(let index, let key, let json):
                guard services.indices.contains(index), let service = services[index].objectValue else {
                    throw .noService(index)
                }
                services[index] = .object(Self.setting(key, to: try Self.parse(json), in: service))
            case .removeServiceField(let index, let key):
                guard services.indices.contains(index), let service = services[index].objectValue else {
                    throw .noService(index)
                }
                services[index] = .object(service.filter { $0.0 != key })
            case .addService(let json):
                services.append(try Self.parse(json))
            case .setField:
                break
            }
        }
        var root = JSONValue.object(Self.setting("services", to: .array(services), in: members))
        for case .setField(let path, let json) in edits {
            root = try Self.setting(path[...], to: try Self.parse(json), in: root)
        }
        return Data(root.serialized([.sortedKeys]).utf8)
    }

    /// `object` with `path` set to `value`, creating (or replacing with) objects on the way.
    private static func setting(
        _ path: ArraySlice<String>,
        to value: JSONValue,
        in object: JSONValue
    ) throws(ProfileVariantError) -> JSONValue {
        guard let key = path.first else { throw .badEdit("an empty path") }
        let members = object.objectValue ?? []
        if path.count == 1 { return .object(setting(key, to: value, in: members)) }
        let inner = try setting(path.dropFirst(), to: value, in: object[key] ?? .object([]))
        return .object(setting(key, to: inner, in: members))
    }

    /// `members` with `key` set to `value`: in place when the key is there, else appended.
    private static func setting(
        _ key: String,
        to value: JSONValue,
        in members: [(String, JSONValue)]
    ) -> [(String, JSONValue)] {
        var members = members
        if let index = members.firstIndex(where: { $0.0 == key }) {
            members[index].1 = value
        } else {
            members.append((key, value))
        }
        return members
    }

    private static func parse(_ json: String) throws(ProfileVariantError) -> JSONValue {
        guard let value = try? JSONValue(parsing: json) else { throw .badEdit(json) }
        return value
    }
}

public enum ProfileVariantError: Error, Hashable, Sendable, CustomStringConvertible {
    case notAProfile
    case noService(Int)
    case badEdit(String)

    public var description: String {
        switch self {
        case .notAProfile: "the profile is not a JSON object with a services list"
        case .noService(let index): "the profile has no services[\(index)]"
        case .badEdit(let json): "not JSON: \(json)"
        }
    }
}

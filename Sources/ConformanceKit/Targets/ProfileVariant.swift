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

    /// The profile document with the edits applied.
    public func apply(to document: Data) throws(ProfileVariantError) -> Data {
        guard var root = try? JSONSerialization.jsonObject(with: document) as? [String: Any],
            var services = root["services"] as? [Any]
        else { throw .notAProfile }
        for edit in edits {
            switch edit {
            case .setServiceField(let index, let key, let json):
                guard services.indices.contains(index), var service = services[index] as? [String: Any] else {
                    throw .noService(index)
                }
                service[key] = try Self.parse(json)
                services[index] = service
            case .removeServiceField(let index, let key):
                guard services.indices.contains(index), var service = services[index] as? [String: Any] else {
                    throw .noService(index)
                }
                service.removeValue(forKey: key)
                services[index] = service
            case .addService(let json):
                services.append(try Self.parse(json))
            case .setField:
                break
            }
        }
        root["services"] = services
        for case .setField(let path, let json) in edits {
            root = try Self.setting(path[...], to: try Self.parse(json), in: root)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]) else {
            throw .notAProfile
        }
        return data
    }

    private static func setting(
        _ path: ArraySlice<String>,
        to value: Any,
        in object: [String: Any]
    ) throws(ProfileVariantError) -> [String: Any] {
        guard let key = path.first else { throw .badEdit("an empty path") }
        var object = object
        if path.count == 1 {
            object[key] = value
        } else {
            let inner = object[key] as? [String: Any] ?? [:]
            object[key] = try setting(path.dropFirst(), to: value, in: inner)
        }
        return object
    }

    private static func parse(_ json: String) throws(ProfileVariantError) -> Any {
        guard let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) else {
            throw .badEdit(json)
        }
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

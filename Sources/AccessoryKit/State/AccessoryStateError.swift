import AwareDevice

/// Why the accessory's state directory cannot be used. Nothing in it is ever replaced
/// silently: a file that does not read is reported, and left for a person to look at.
public enum AccessoryStateError: Error, Hashable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case unusable(path: String, reason: String)
    case inUse(path: String)
    case corrupt(path: String, reason: String)
    case unsupportedFormat(path: String, format: String)
    /// The pairing store refused a change (`.pairedDeviceLimit`, `.invalidRecord`).
    case pairingStore(DeviceStateError)

    /// The same problem in the accessory's words.
    public init(_ error: DeviceStateError) {
        switch error {
        case .notADirectory(let path): self = .notADirectory(path)
        case .unusable(let path, let reason): self = .unusable(path: path, reason: reason)
        case .inUse(let path): self = .inUse(path: path)
        case .corrupt(let path, let reason): self = .corrupt(path: path, reason: reason)
        case .unsupportedFormat(let path, let format): self = .unsupportedFormat(path: path, format: format)
        case .pairedDeviceLimit, .invalidRecord: self = .pairingStore(error)
        }
    }

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) exists and is not a directory"
        case .unusable(let path, let reason): "cannot use \(path): \(reason)"
        case .inUse(let path):
            "\(path) is in use by another accessory-emu (it holds \(path)/lock); give each accessory its own --state-dir"
        case .corrupt(let path, let reason):
            "\(path) is damaged (\(reason)); it was left as it is: move it away to start afresh"
        case .unsupportedFormat(let path, let format):
            "\(path) has format \"\(format)\", which this accessory-emu does not know"
        case .pairingStore(let error): error.description
        }
    }
}

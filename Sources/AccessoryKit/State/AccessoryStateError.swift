/// Why the accessory's state directory cannot be used. Nothing in it is ever replaced
/// silently: a file that does not read is reported, and left for a person to look at.
public enum AccessoryStateError: Error, Hashable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case unusable(path: String, reason: String)
    case inUse(path: String)
    case corrupt(path: String, reason: String)
    case unsupportedFormat(path: String, format: String)

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
        }
    }
}

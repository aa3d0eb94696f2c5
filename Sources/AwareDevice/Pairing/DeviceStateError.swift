/// Why a device's state directory, or a file in it, cannot be used. Nothing in the directory is
/// ever replaced silently: a file that does not read is reported and left for a person to look at.
/// No case carries key material: reasons name the entry and the field, never the value.
public enum DeviceStateError: Error, Hashable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case unusable(path: String, reason: String)
    /// Another process (or another `StateDirectory` in this one) holds `path/lock`.
    case inUse(path: String)
    case corrupt(path: String, reason: String)
    case unsupportedFormat(path: String, format: String)
    /// Adding one more paired device would exceed the profile's `pairing.maxPairedDevices`.
    case pairedDeviceLimit(Int)
    /// A record the store refuses to write, because it could not read it back.
    case invalidRecord(reason: String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) exists and is not a directory"
        case .unusable(let path, let reason): "cannot use \(path): \(reason)"
        case .inUse(let path):
            "\(path) is in use by another process (it holds \(path)/lock); give each device its own state directory"
        case .corrupt(let path, let reason):
            "\(path) is damaged (\(reason)); it was left as it is: move it away to start afresh"
        case .unsupportedFormat(let path, let format):
            "\(path) has format \"\(format)\", which this program does not know"
        case .pairedDeviceLimit(let cap):
            "already paired with \(cap) devices, the most this device keeps; remove one (or factory reset) first"
        case .invalidRecord(let reason): "refusing to store a pairing record: \(reason)"
        }
    }
}

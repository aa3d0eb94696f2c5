import ArgumentParser
import Foundation

/// A file a command will write when it is done (a report, a capture). Checked before the work
/// starts, so a typo in a directory costs a usage error (exit 2) at once rather than a whole
/// run's results after it: the directory must exist and be writable, and the path must not
/// name a directory.
public enum OutputPath {
    /// Throws a `ValidationError` naming `option` and what is wrong with `path`.
    public static func check(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw ValidationError("\(option) \(path): is a directory; give a file name")
            }
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw ValidationError("\(option) \(path): the file exists and cannot be written")
            }
            return
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw ValidationError("\(option) \(path): the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else {
            throw ValidationError("\(option) \(path): \(directory) is not a directory")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw ValidationError("\(option) \(path): the directory \(directory) cannot be written")
        }
    }

    /// Checks each `(option, path)` whose path is set.
    public static func check(_ outputs: [(option: String, path: String?)]) throws {
        for output in outputs {
            if let path = output.path { try check(path, option: output.option) }
        }
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files so that a reader sees the old content or the new, never a part: the
/// octets go to a temporary file in the same directory (same file system), which is then
/// renamed over the target (rename(2) replaces atomically).
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(CaptureTapError) {
        let directory = directoryOf(path)
        let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "capture")
        let temporary = "\(directory)/.\(name).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .unwritable(path: path, reason: "cannot create a temporary file in \(directory)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }

    /// Whether a file can be created or replaced at `path`; the reason when not.
    static func problem(writing path: String) -> String? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue {
            return "it is a directory"
        }
        let directory = directoryOf(path)
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            return "the directory \(directory) does not exist"
        }
        guard isDirectory.boolValue else { return "\(directory) is not a directory" }
        guard manager.isWritableFile(atPath: directory) else { return "the directory \(directory) is not writable" }
        return nil
    }

    static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

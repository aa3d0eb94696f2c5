import ArgumentParser
import Foundation

/// Standard output in 64 KiB writes: decoding a 100,000-frame capture prints millions of
/// lines, and a write per line would cost more than the decoding.
public struct OutputBuffer {
    private var pending: [UInt8] = []
    private let handle: FileHandle

    public init(_ handle: FileHandle = .standardOutput) {
        self.handle = handle
        pending.reserveCapacity(1 << 16)
    }

    public mutating func line(_ text: String) {
        pending.append(contentsOf: text.utf8)
        pending.append(0x0A)
        if pending.count >= 1 << 16 { flush() }
    }

    public mutating func flush() {
        guard !pending.isEmpty else { return }
        handle.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}

// MARK: - StandardError

/// `print(..., to: &standardError)`.
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

// MARK: - OutputPath

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

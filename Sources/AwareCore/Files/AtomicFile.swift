#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be written whole: the path and what the system said.
public struct AtomicFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// Writes whole files so that a reader, or the next start after a crash or power loss, sees the
/// old content or the new, never a part. The package's one atomic writer: pairings, identity,
/// captures, reports and evidence all go through it.
///
/// The octets go to a fresh temporary file in the same directory (so the rename stays on one
/// file system), opened with `O_CREAT | O_EXCL | O_NOFOLLOW`, so a file or symbolic link planted
/// under the temporary name is never written through; the file is flushed with fsync(2), renamed
/// over the target (rename(2) replaces atomically, POSIX.1-2017), and the directory is flushed
/// so that the rename itself survives a power loss.
public enum AtomicFile {
    /// The marker in a temporary file's name: `<name>.tmp-<pid>-<random>`.
    public static let temporaryMarker = ".tmp-"

    /// Replaces `path` with `bytes`; the file gets `mode` (0o600 for keys, 0o644 for reports).
    public static func write(
        _ bytes: some Collection<UInt8>,
        to path: String,
        mode: mode_t = 0o644
    ) throws(AtomicFileError) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !name.isEmpty, name != ".", name != ".." else {
            throw AtomicFileError(path: path, reason: "it names a directory, not a file")
        }
        let directory = directoryOf(path)
        let temporary = "\(directory)/\(name)\(temporaryMarker)\(getpid())-\(UInt32.random(in: .min ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw AtomicFileError(path: path, reason: "cannot create a temporary file in \(directory): \(errorText())")
        }
        let octets = Array(bytes)
        var offset = 0
        var failure: String?
        while offset < octets.count {
            let written = octets.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errorText()
                break
            }
            offset += written
        }
        if failure == nil, fchmod(descriptor, mode) != 0 { failure = errorText() }
        if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw AtomicFileError(path: path, reason: "the write did not complete: \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw AtomicFileError(path: path, reason: reason)
        }
        syncDirectory(directory)
    }

    /// Whether a file can be created or replaced at `path`; the reason when not. For checking an
    /// output option before a long run rather than failing at its end.
    public static func problem(writing path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
        let directory = directoryOf(path)
        guard stat(directory, &status) == 0 else { return "the directory \(directory) does not exist" }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a directory" }
        guard access(directory, W_OK | X_OK) == 0 else { return "the directory \(directory) is not writable" }
        return nil
    }

    /// Makes a rename or an unlink in `directory` durable: it lives in the directory's own data.
    public static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The directory part of `path`: "." for a bare name, "/" for a file in the root.
    public static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// write(2), named apart from `AtomicFile.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

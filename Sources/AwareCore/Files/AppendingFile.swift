#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written front to back as its content arrives, one whole piece at a time: a capture
/// that a run of hours writes frame by frame, holding none of it in memory.
///
/// Unlike ``AtomicFile`` (all or nothing, at the end), the file is there from the start and
/// grows. Each ``append(_:)`` hands the kernel one complete piece (write(2), continued until all
/// of it is written), so a process that dies leaves the file whole up to the last piece, but
/// for the one being written; a power loss may also lose what the kernel had not yet written
/// back (``close()`` flushes with fsync(2)). When a write fails (the disk is full), the file is
/// cut back to the end of the last whole piece, so it stays a valid file of whole pieces.
public final class AppendingFile {
    public let path: String
    /// The octets written in whole pieces.
    public private(set) var length = 0
    /// -1 once closed.
    private var descriptor: Int32

    /// Creates `path`, or empties the file there (`O_CREAT | O_TRUNC`), with `mode`; never
    /// through a symbolic link (`O_NOFOLLOW`: a link planted at the path is an error, not a way
    /// to overwrite its target).
    public init(path: String, mode: mode_t = 0o644) throws(AtomicFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw AtomicFileError(path: path, reason: AtomicFile.problem(writing: path) ?? reason)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Writes `octets` after everything written so far. On a failure the file is cut back to
    /// ``length`` (what whole pieces it held) and the error says what the system said.
    public func append(_ octets: [UInt8]) throws(AtomicFileError) {
        guard descriptor >= 0 else { throw AtomicFileError(path: path, reason: "the file is closed") }
        var offset = 0
        while offset < octets.count {
            let written = octets.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                // Part of the piece may be in the file: cut it off (a character device such as
                // /dev/full cannot be truncated, and has nothing to cut).
                if offset > 0 { _ = ftruncate(descriptor, off_t(length)) }
                throw AtomicFileError(path: path, reason: reason)
            }
            offset += written
        }
        length += octets.count
    }

    /// Flushes the file to storage and closes it; a second call does nothing.
    public func close() throws(AtomicFileError) {
        guard descriptor >= 0 else { return }
        var failure: String?
        // fsync(2) fails with EINVAL on what cannot be synchronised (a pipe, a character
        // device): nothing was lost there.
        if fsync(descriptor) != 0, errno != EINVAL { failure = String(cString: strerror(errno)) }
        if systemClose(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        descriptor = -1
        if let failure { throw AtomicFileError(path: path, reason: failure) }
    }
}

/// write(2), named apart from `AppendingFile.append`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// close(2), named apart from `AppendingFile.close`.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

import Foundation
import Glibc

/// An `AF_UNIX` / `SOCK_STREAM` socket carrying newline-terminated lines: the accessory's
/// control channel (docs/reference/control.md) on both ends. A listener hands out one socket per client;
/// a client connects to the listener's path.
///
/// `@unchecked Sendable`: the descriptor is immutable, reads happen on one thread (the
/// connection's), writes on one thread, and `closed` sits behind `lock`.
public final class UnixStreamSocket: @unchecked Sendable {
    public let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false
    private var pending: [UInt8] = []
    private let ownsPath: Bool

    private init(descriptor: Int32, path: String, ownsPath: Bool) {
        self.descriptor = descriptor
        self.path = path
        self.ownsPath = ownsPath
    }

    deinit {
        close()
    }

    /// Listens on `path`, made 0600. A socket file left by a dead process is replaced; one a live
    /// process answers on, or any other file, is refused.
    public static func listen(path: String) throws(UnixStreamError) -> UnixStreamSocket {
        try checkLength(path)
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw UnixStreamError("\(path) exists and is not a socket; choose another path")
            }
            if let live = try? connect(path: path, timeout: 0.5) {
                live.close()
                throw UnixStreamError("another program listens on \(path)")
            }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw UnixStreamError("cannot create a Unix socket: \(errorText(errno))") }
        var address = socketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(descriptor, 16) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw UnixStreamError("cannot listen on \(path): \(errorText(code))")
        }
        return UnixStreamSocket(descriptor: descriptor, path: path, ownsPath: true)
    }

    /// Connects to a listener; `timeout` (seconds) also bounds every later read and write.
    public static func connect(path: String, timeout: Double) throws(UnixStreamError) -> UnixStreamSocket {
        try checkLength(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw UnixStreamError("cannot create a Unix socket: \(errorText(errno))") }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = socketAddress(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw UnixStreamError("cannot connect to \(path): \(errorText(code))")
        }
        return UnixStreamSocket(descriptor: descriptor, path: path, ownsPath: false)
    }

    /// What ``accept()`` got.
    public enum Acceptance {
        case client(UnixStreamSocket)
        /// The kernel could not hand over a connection now (the process or the system is out of
        /// descriptors or memory, or the peer left first): `errno` says which. The listener works
        /// on; the caller should wait a moment before the next call.
        case unavailable(errno: Int32)
        /// The listener is shut down.
        case closed
    }

    /// The next client. A shortage of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) or a
    /// connection aborted before it was taken (ECONNABORTED, EPROTO) is `.unavailable`: none of
    /// them ends the listener (accept(2)). The client's descriptor is made close-on-exec.
    public func accept() -> Acceptance {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return .client(UnixStreamSocket(descriptor: client, path: path, ownsPath: false))
            }
            let code = errno
            if isClosed { return .closed }
            switch code {
            case EINTR: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM, ECONNABORTED, EPROTO: return .unavailable(errno: code)
            default: return .closed
            }
        }
    }

    public enum LineResult: Hashable, Sendable {
        case line([UInt8])
        /// The line grew past the limit; its remainder up to the next newline is discarded.
        case tooLong(Int)
        /// The peer closed the connection, or a read failed or timed out.
        case end
    }

    /// The next line without its newline (a trailing carriage return is kept for the parser).
    public func readLine(maximumLength: Int) -> LineResult {
        var discarding = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if discarding > 0 { return .tooLong(discarding + line.count) }
                if line.count > maximumLength { return .tooLong(line.count) }
                return .line(line)
            }
            if pending.count > maximumLength {
                discarding += pending.count
                pending.removeAll()
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .end }
            pending += buffer[0..<count]
        }
    }

    /// Writes the line and its newline; false when the peer is gone.
    @discardableResult
    public func write(line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    public var isClosed: Bool { lock.withLock { closed } }

    /// Wakes a thread blocked on this socket and closes it; a listener removes its file.
    public func close() {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        // SHUT_RDWR is 2 (<sys/socket.h>); spelled out because in a release build the constant is
        // imported through CNetlink's headers, which this file does not import.
        _ = Glibc.shutdown(descriptor, 2)
        Glibc.close(descriptor)
        if ownsPath { unlink(path) }
    }

    /// The largest sun_path, without its terminating NUL (unix(7)).
    static let maximumPathLength = 107

    private static func checkLength(_ path: String) throws(UnixStreamError) {
        guard !path.isEmpty, path.utf8.count <= maximumPathLength else {
            throw UnixStreamError("socket path \(path) must be 1 to \(maximumPathLength) bytes long")
        }
    }

    private static func socketAddress(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, octet) in path.utf8.prefix(maximumPathLength).enumerated() { raw[index] = octet }
        }
        return address
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Why a stream socket could not be opened: what and where.
public struct UnixStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

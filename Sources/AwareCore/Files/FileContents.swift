#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with read(2): the package's one reader, beside its one writer
/// (``AtomicFile``). A refusal is told in the system's own words (strerror(3): "Permission
/// denied"), not Foundation's ("You don't have permission", which it says to root as well), and a
/// caller that must not take a file of any size gives a limit.
public enum FileContents {
    /// Why a file could not be read whole.
    public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A system call failed with `errno`.
        case system(errno: Int32)
        /// The file holds more than the caller's limit (it may still have been growing).
        case longerThan(Int)

        /// What the system said, or the limit in words.
        public var reason: String {
            switch self {
            case .system(let errno): String(cString: strerror(errno))
            case .longerThan(let limit): "it is over \(limit) octets"
            }
        }

        public var description: String { reason }
    }

    /// The contents of `path` (opened read-only, close-on-exec).
    public static func read(_ path: String, atMost limit: Int? = nil) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(errno: errno) }
        defer { close(descriptor) }
        return try readAll(from: descriptor, atMost: limit)
    }

    /// Everything `descriptor` gives until its end, in 64 KiB reads; past `limit` octets the read
    /// stops with ``ReadError/longerThan(_:)``.
    public static func readAll(from descriptor: Int32, atMost limit: Int? = nil) throws(ReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try readSome(from: descriptor, into: &buffer)
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
            if let limit, bytes.count > limit { throw .longerThan(limit) }
        }
    }

    /// One read(2) into `buffer`, retried when a signal interrupts it: the count read, 0 at the end.
    static func readSome(from descriptor: Int32, into buffer: inout [UInt8]) throws(ReadError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            if errno != EINTR { throw .system(errno: errno) }
        }
    }
}

/// A file read front to back in chunks, for input that is used as it arrives rather than
/// held whole: a capture of gigabytes costs the memory of one chunk. The read loop is
/// ``FileContents``'s.
public final class FileChunks {
    public let path: String
    /// How many octets the reads have given so far.
    public private(set) var octetsRead = 0
    private let descriptor: Int32
    private var buffer: [UInt8]

    /// Opens `path` read-only, close-on-exec; each ``next()`` gives up to `chunkLength` octets.
    public init(path: String, chunkLength: Int = 1 << 16) throws(FileContents.ReadError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(errno: errno) }
        self.path = path
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: max(1, chunkLength))
    }

    deinit { close(descriptor) }

    /// The next octets of the file, as many as one read(2) gives; empty at the end.
    public func next() throws(FileContents.ReadError) -> [UInt8] {
        let count = try FileContents.readSome(from: descriptor, into: &buffer)
        octetsRead += count
        return Array(buffer[0..<count])
    }
}

/// read(2), named apart from `FileContents.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

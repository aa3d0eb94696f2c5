import Glibc

/// Reads a whole capture file with the system's own words for a refusal ("Permission denied",
/// not Foundation's "You don't have permission", which it says to root as well).
public enum CaptureFile {
    /// What the system said (strerror(3) of the failing call's errno).
    public struct ReadError: Error, Hashable, Sendable {
        public var reason: String

        public init(reason: String) { self.reason = reason }
    }

    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files of the AwareBench checkout this package was built from (profiles, the hostap
/// session capture), found from this source file's path: the fuzz targets run from
/// Fuzz/.build and are never installed elsewhere.
public enum RepositoryFile {
    /// The checkout's root: the folder above Fuzz/ (this file is Fuzz/Sources/FuzzSupport/RepositoryFile.swift).
    public static var root: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }

    /// The octets of `path` (relative to the checkout), or nil when it cannot be read.
    public static func bytes(_ path: String) -> [UInt8]? {
        bytes(atAbsolutePath: root + "/" + path)
    }

    /// The octets of the file at `path`, or nil when it cannot be read.
    public static func bytes(atAbsolutePath path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// Like ``bytes(_:)``, but a missing file ends the run: a target without its inputs
    /// would fuzz something else than it says.
    public static func required(_ path: String) -> [UInt8] {
        guard let bytes = bytes(path) else { fuzzFailure("cannot read \(root)/\(path)") }
        return bytes
    }
}

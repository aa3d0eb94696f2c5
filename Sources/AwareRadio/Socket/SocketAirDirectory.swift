import AwareCore
import AwareWire
import Foundation
import Glibc

/// The directory that is a socket air: every Unix datagram socket in it is a station's
/// radio. There is no broker; a process joins by binding a socket file there and leaves by
/// unlinking it, so either side may start first.
enum SocketAirDirectory {
    /// `<pid>-<8 hex digits>.sock` is at most 21 bytes (Linux pids stay below 2^22).
    static let longestSocketName = 21
    /// A directory longer than this leaves no room for a socket file name in sun_path.
    static let maximumDirectoryLength = UnixDatagramSocket.maximumPathLength - 1 - longestSocketName

    /// `$XDG_RUNTIME_DIR/awarebench/air` when that is a writable directory (the per-user
    /// runtime directory systemd provides), else `/tmp/awarebench-<uid>/air`.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, isWritableDirectory(runtime) {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/awarebench/air"
        }
        return "/tmp/awarebench-\(geteuid())/air"
    }

    /// `<pid>-<8 random hex digits>.sock`: unique per process and per air in it, and the
    /// pid tells a person whose socket it is.
    static func newSocketName() -> String {
        "\(getpid())-\(HexString.encode(withUnsafeBytes(of: UInt32.random(in: .min ... .max)) { Array($0) })).sock"
    }

    /// Creates `path` (and missing parents, 0700) and returns it absolute and canonical.
    /// Refuses a path that is not a directory, belongs to another user or is too long.
    static func prepare(_ path: String) throws(AirError) -> String {
        guard !path.isEmpty else { throw .unavailable("the socket air path is empty") }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        try checkLength(absolute, given: path)
        var existing = stat()
        if lstat(absolute, &existing) == 0 {
            try checkDirectory(absolute, existing)
        } else {
            try makeDirectories(absolute)
        }
        guard let resolved = realpath(absolute, nil) else {
            throw .unavailable(
                "cannot resolve the socket air directory \(path): \(UnixDatagramSocket.errorText(errno))"
            )
        }
        let canonical = String(cString: resolved)
        free(resolved)
        var status = stat()
        guard stat(canonical, &status) == 0 else {
            throw .unavailable("cannot read the socket air directory \(path): \(UnixDatagramSocket.errorText(errno))")
        }
        try checkDirectory(canonical, status)
        try checkLength(canonical, given: path)
        if canonical.hasPrefix("/tmp/awarebench-") {
            try checkOwner(String(canonical[..<(canonical.lastIndex(of: "/") ?? canonical.endIndex)]))
        }
        return canonical
    }

    /// The full paths of every socket in `directory` but `own`.
    static func peers(in directory: String, excluding own: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var found: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != "." && name != ".." else { continue }
            let full = directory + "/" + name
            guard full != own else { continue }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_SOCK): found.append(full)
            case Int32(DT_UNKNOWN) where isSocket(full): found.append(full)
            default: continue
            }
        }
        return found
    }

    /// Unlinks `path` if it is (still) a socket file; returns whether it did.
    @discardableResult
    static func removeSocket(_ path: String) -> Bool {
        isSocket(path) && unlink(path) == 0
    }

    static func isSocket(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    private static func isWritableDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR && access(path, W_OK) == 0
    }

    private static func checkLength(_ absolute: String, given: String) throws(AirError) {
        let length = absolute.utf8.count
        guard length <= maximumDirectoryLength else {
            throw .unavailable(
                "the socket air directory \(absolute) is \(length) bytes long, but a Unix socket path holds at "
                    + "most \(UnixDatagramSocket.maximumPathLength) bytes and the socket file inside needs up to "
                    + "\(longestSocketName + 1) of them, so the directory may have at most \(maximumDirectoryLength); "
                    + "choose a shorter path, for example --air socket:/tmp/awb-air"
            )
        }
    }

    private static func checkDirectory(_ path: String, _ status: stat) throws(AirError) {
        var followed = status
        if status.st_mode & S_IFMT == S_IFLNK, stat(path, &followed) != 0 {
            throw .unavailable("the socket air path \(path) is a dangling symbolic link")
        }
        guard followed.st_mode & S_IFMT == S_IFDIR else {
            throw .unavailable(
                "the socket air path \(path) exists and is not a directory; a socket air is a directory "
                    + "(created if missing) in which every process binds its own socket"
            )
        }
        try checkOwner(path, followed)
    }

    private static func checkOwner(_ path: String) throws(AirError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        try checkOwner(path, status)
    }

    private static func checkOwner(_ path: String, _ status: stat) throws(AirError) {
        guard status.st_uid == geteuid() else {
            throw .unavailable(
                "the socket air directory \(path) belongs to user \(status.st_uid), not to you (user "
                    + "\(geteuid())); a socket air is private to one user, so choose a directory of your own"
            )
        }
        // Whoever may create a file in the directory may bind a socket there and hear every frame
        // of the air, the PIN display among them.
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .unavailable(
                "the socket air directory \(path) may be written by its group or by everyone (mode "
                    + "0\(String(status.st_mode & 0o7777, radix: 8))), so another user could join the air and hear "
                    + "every frame, the PIN among them; chmod 700 it, or choose a directory of your own"
            )
        }
    }

    private static func makeDirectories(_ absolute: String) throws(AirError) {
        var prefix = ""
        for component in absolute.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .unavailable(
                    "cannot create the socket air directory \(prefix): \(UnixDatagramSocket.errorText(errno))"
                )
            }
        }
    }
}

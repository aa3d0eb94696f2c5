import AwareCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A directory only one process may use at a time (an exclusive `flock` on `lock`), holding
/// files written atomically (a temporary file in the same directory, fsync, rename, fsync of the
/// directory), 0600 in a 0700 directory. The accessory's `--state-dir` and the phone's
/// `--phone-state` are both one of these, so both get the same guarantees.
///
/// `Sendable`: its state is immutable; the lock lives as long as the object.
public final class StateDirectory: Sendable {
    public let path: String
    private let lockDescriptor: Int32

    /// The marker in a temporary file's name (`AtomicFile` writes `<name>.tmp-<pid>-<random>`).
    static let temporaryMarker = AtomicFile.temporaryMarker

    /// Opens (creating it 0700 if needed) and locks `path`. Temporaries left by a write that was
    /// interrupted are removed: with the lock held, no one else can be writing them.
    public init(path: String) throws(DeviceStateError) {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .notADirectory(path) }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: path,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .unusable(path: path, reason: error.localizedDescription)
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
        if let reason = Self.insecurity(of: status, isDirectory: true) { throw .insecure(path: path, reason: reason) }
        let lockPath = path + "/lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unusable(path: lockPath, reason: String(cString: strerror(errno))) }
        if fstat(descriptor, &status) == 0, let reason = Self.insecurity(of: status, isDirectory: false) {
            close(descriptor)
            throw .insecure(path: lockPath, reason: reason)
        }
        // flock locks belong to the open file description, so a second StateDirectory on the
        // same path in this process is kept out as well as another process.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .inUse(path: path)
        }
        lockDescriptor = descriptor
        removeStaleTemporaries()
    }

    deinit {
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    /// The full path of `name` in the directory.
    public func filePath(_ name: String) -> String { path + "/" + name }

    /// The most a state file may hold: a pairing store of 255 peers is under 150 KiB. Anything
    /// larger is not a file this program wrote, and reading it whole would cost memory for nothing.
    public static let maximumFileOctets = 1 << 20

    /// The contents of `name`, or nil when there is no such file. Only a regular file this
    /// program could have written is read: a symbolic link (a loop among them), a FIFO (whose
    /// reader would wait forever), a directory or a device, or a file over ``maximumFileOctets``,
    /// is `.corrupt`, and like every damaged file it is left as it is.
    public func read(_ name: String) throws(DeviceStateError) -> Data? {
        let target = filePath(name)
        // O_NOFOLLOW: a link is refused (ELOOP), not followed; O_NONBLOCK: opening a FIFO does
        // not wait for a writer.
        let descriptor = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .corrupt(path: target, reason: "it is a symbolic link, not a file this program wrote")
            default: throw .unusable(path: target, reason: String(cString: strerror(errno)))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unusable(path: target, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .corrupt(path: target, reason: "it is \(Self.kind(of: status.st_mode)), not a regular file")
        }
        if let reason = Self.insecurity(of: status, isDirectory: false) {
            throw .insecure(path: target, reason: reason)
        }
        guard status.st_size <= Self.maximumFileOctets else {
            throw .corrupt(
                path: target,
                reason: "it is \(status.st_size) octets; a state file holds at most \(Self.maximumFileOctets)"
            )
        }
        do {
            // The limit again while reading: a file that grows meanwhile is not one at rest.
            return Data(try FileContents.readAll(from: descriptor, atMost: Self.maximumFileOctets))
        } catch .longerThan(let limit) {
            throw .corrupt(path: target, reason: "it is over \(limit) octets; a state file holds at most that")
        } catch {
            throw .unusable(path: target, reason: error.reason)
        }
    }

    /// Why a directory or file of state cannot be trusted, or nil: another user could write keys
    /// into it or swap it (it belongs to another user, or its group or everyone may write it).
    /// What another user may write, this program would take as its own pairings. Reading alone is
    /// not checked: the files are written 0600 and the directory 0700.
    static func insecurity(of status: stat, isDirectory: Bool) -> String? {
        let mode = String(status.st_mode & 0o7777, radix: 8)
        let fix = isDirectory ? "chmod 700" : "chmod 600"
        if status.st_uid != geteuid() {
            return "it belongs to user \(status.st_uid), not to this user (\(geteuid())), who could not trust "
                + "what that user writes there; use a directory of your own"
        }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "its group or everyone may write it (mode 0\(mode)), so another user could put keys there; \(fix) it"
        }
        return nil
    }

    /// What a file type is, in words (`stat`'s `S_IFMT`).
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Replaces `name` with `data` so that a crash at any point leaves either the old or the new
    /// contents, never a mix.
    public func writeAtomically(_ data: Data, to name: String) throws(DeviceStateError) {
        do {
            try AtomicFile.write(data, to: filePath(name), mode: 0o600)
        } catch {
            throw .unusable(path: error.path, reason: error.reason)
        }
    }

    /// Deletes `name`; true when it existed.
    @discardableResult
    public func remove(_ name: String) throws(DeviceStateError) -> Bool {
        let target = filePath(name)
        guard unlink(target) == 0 else {
            if errno == ENOENT { return false }
            throw .unusable(path: target, reason: String(cString: strerror(errno)))
        }
        AtomicFile.syncDirectory(path)
        return true
    }

    private func removeStaleTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where name.contains(Self.temporaryMarker) {
            unlink(filePath(name))
        }
    }
}

// MARK: - DeviceStateError

/// Why a device's state directory, or a file in it, cannot be used. Nothing in the directory is
/// ever replaced silently: a file that does not read is reported and left for a person to look at.
/// No case carries key material: reasons name the entry and the field, never the value.
public enum DeviceStateError: Error, Hashable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case unusable(path: String, reason: String)
    /// Another process (or another `StateDirectory` in this one) holds `path/lock`.
    case inUse(path: String)
    case corrupt(path: String, reason: String)
    case unsupportedFormat(path: String, format: String)
    /// Another user could write it (``StateDirectory/insecurity(of:isDirectory:)``): refused, left as it is.
    case insecure(path: String, reason: String)
    /// Adding one more paired device would exceed the profile's `pairing.maxPairedDevices`.
    case pairedDeviceLimit(Int)
    /// A record the store refuses to write, because it could not read it back.
    case invalidRecord(reason: String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) exists and is not a directory"
        case .unusable(let path, let reason): "cannot use \(path): \(reason)"
        case .inUse(let path):
            "\(path) is in use by another process (it holds \(path)/lock); give each device its own state directory"
        case .corrupt(let path, let reason):
            "\(path) is damaged (\(reason)); it was left as it is: move it away to start afresh"
        case .unsupportedFormat(let path, let format):
            "\(path) has format \"\(format)\", which this program does not know"
        case .insecure(let path, let reason): "refusing to use \(path): \(reason)"
        case .pairedDeviceLimit(let cap):
            "already paired with \(cap) devices, the most this device keeps; remove one (or factory reset) first"
        case .invalidRecord(let reason): "refusing to store a pairing record: \(reason)"
        }
    }
}

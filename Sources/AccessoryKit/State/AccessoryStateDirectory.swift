import AwareWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The accessory's `--state-dir`: a directory only it may use while it runs (an exclusive
/// `flock` on `lock`), holding versioned JSON files written atomically (a temporary file in
/// the same directory, fsync, rename, fsync of the directory), 0600 in a 0700 directory.
public final class AccessoryStateDirectory {
    public let path: String
    private let lockDescriptor: Int32

    /// Opens (creating if needed) and locks `path`.
    public init(path: String) throws(AccessoryStateError) {
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
        let lockPath = path + "/lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unusable(path: lockPath, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .inUse(path: path)
        }
        lockDescriptor = descriptor
    }

    deinit {
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    var identityPath: String { path + "/identity.json" }

    /// The stored identity, or nil when none was stored yet.
    public func readIdentity() throws(AccessoryStateError) -> AccessoryIdentityRecord? {
        guard let data = FileManager.default.contents(atPath: identityPath) else { return nil }
        let record: AccessoryIdentityRecord
        do {
            record = try JSONDecoder().decode(AccessoryIdentityRecord.self, from: data)
        } catch {
            throw .corrupt(path: identityPath, reason: "not the identity JSON this program writes")
        }
        guard record.format == AccessoryIdentityRecord.currentFormat else {
            throw .unsupportedFormat(path: identityPath, format: record.format)
        }
        guard record.address != nil, record.boots >= 0 else {
            throw .corrupt(path: identityPath, reason: "the NMI or the boot count is invalid")
        }
        return record
    }

    public func writeIdentity(_ record: AccessoryIdentityRecord) throws(AccessoryStateError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record) else {
            throw .unusable(path: identityPath, reason: "cannot encode the identity")
        }
        try writeAtomically(data, to: identityPath)
    }

    /// Loads the identity, falling back to `proposed` the first time, counts this boot, and
    /// stores the result. A profile that fixes its NMI overrides what was stored.
    public func boot(
        proposedAddress: MACAddress,
        profileFixesAddress: Bool
    ) throws(AccessoryStateError)
        -> AccessoryIdentityRecord
    {
        let stored = try readIdentity()
        let address = profileFixesAddress ? proposedAddress : (stored?.address ?? proposedAddress)
        let record = AccessoryIdentityRecord(nmi: address, boots: (stored?.boots ?? 0) + 1)
        try writeIdentity(record)
        return record
    }

    private func writeAtomically(_ data: Data, to target: String) throws(AccessoryStateError) {
        let temporary = target + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unusable(path: temporary, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced else {
            unlink(temporary)
            throw .unusable(path: temporary, reason: "the write did not complete")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unusable(path: target, reason: reason)
        }
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}

import AwareCore
import AwareDevice
import AwareWire
import Foundation

/// The accessory's `--state-dir`: a `StateDirectory` (locked while the accessory runs, files
/// written atomically, 0600 in 0700) holding its identity and its pairing store.
public final class AccessoryStateDirectory {
    public var path: String { directory.path }
    /// The locked directory, for the pairing store and anything else kept across restarts.
    public let directory: StateDirectory
    /// The paired phones and the accessory's own NIK, in the same locked directory.
    public let pairingStore: PairingStore

    static let identityFileName = "identity.json"

    /// Opens (creating if needed) and locks `path`.
    public init(path: String) throws(AccessoryStateError) {
        do {
            directory = try StateDirectory(path: path)
        } catch {
            throw AccessoryStateError(error)
        }
        pairingStore = PairingStore(directory: directory)
    }

    var identityPath: String { directory.filePath(Self.identityFileName) }

    /// The stored identity, or nil when none was stored yet.
    public func readIdentity() throws(AccessoryStateError) -> AccessoryIdentityRecord? {
        guard
            let record = try directory.readRecord(
                AccessoryIdentityRecord.self,
                from: Self.identityFileName,
                what: "the identity JSON",
                format: \.format,
                currentFormat: AccessoryIdentityRecord.currentFormat
            )
        else { return nil }
        guard record.address != nil else {
            throw .corrupt(path: identityPath, reason: "the NMI \"\(record.nmi.prefix(40))\" is not a MAC address")
        }
        // Below the maximum, so that counting this boot stays within it.
        guard (0..<AccessoryIdentityRecord.maximumBoots).contains(record.boots) else {
            throw .corrupt(
                path: identityPath,
                reason: "the boot count \(record.boots) is outside 0..<\(AccessoryIdentityRecord.maximumBoots)"
            )
        }
        return record
    }

    public func writeIdentity(_ record: AccessoryIdentityRecord) throws(AccessoryStateError) {
        guard let value = try? JSONValueEncoder().encode(record) else {
            throw .unusable(path: identityPath, reason: "cannot encode the identity")
        }
        do {
            try directory.writeAtomically(
                Data(value.serialized([.prettyPrinted, .sortedKeys]).utf8),
                to: Self.identityFileName
            )
        } catch {
            throw AccessoryStateError(error)
        }
    }

    /// Reads the pairing store whole and returns how many devices it holds, so that a damaged,
    /// foreign or unreadable store stops the accessory when it starts (exit 3) instead of being
    /// met at the first pairing, or passed over as if it were empty. The file is left as it is.
    public func checkPairingStore() throws(AccessoryStateError) -> Int {
        do {
            return try pairingStore.load().peers.count
        } catch {
            throw AccessoryStateError(error)
        }
    }

    /// Checks the pairing store (``checkPairingStore()``) and the lockout (``LockoutFile``), loads
    /// the identity, falling back to `proposed` the first time, counts this boot, and stores the
    /// result. A profile that fixes its NMI overrides what was stored. A damaged store, lockout or
    /// identity stops the boot before it is counted.
    public func boot(
        proposedAddress: MACAddress,
        profileFixesAddress: Bool
    ) throws(AccessoryStateError)
        -> AccessoryIdentityRecord
    {
        _ = try checkPairingStore()
        _ = try LockoutFile(directory: directory).read()
        let stored = try readIdentity()
        let address = profileFixesAddress ? proposedAddress : (stored?.address ?? proposedAddress)
        let record = AccessoryIdentityRecord(nmi: address, boots: (stored?.boots ?? 0) + 1)
        try writeIdentity(record)
        return record
    }

    /// The factory reset: forgets every paired phone, the own NIK and the identity, so the
    /// accessory comes back as a new device (a new NMI, boot 1). The directory and its lock stay.
    /// A damaged pairing store or identity is removed too: resetting is how a person starts afresh.
    public func factoryReset() throws(AccessoryStateError) -> FactoryResetSummary {
        do throws(DeviceStateError) {
            let contents = try readableContents()
            let hadStore = try pairingStore.reset()
            let hadIdentity = try directory.remove(Self.identityFileName)
            // Wrong PINs counted against the device it was are no longer anyone's business.
            _ = try directory.remove(LockoutFile.fileName)
            return FactoryResetSummary(
                pairedDevices: hadStore ? contents?.peers.count : 0,
                removedOwnNIK: contents?.ownNIK != nil,
                removedIdentity: hadIdentity
            )
        } catch {
            throw AccessoryStateError(error)
        }
    }

    /// The pairing store's contents, or nil when it is damaged or of an unknown format.
    private func readableContents() throws(DeviceStateError) -> PairingStoreContents? {
        do {
            return try pairingStore.load()
        } catch {
            switch error {
            case .corrupt, .unsupportedFormat: return nil
            default: throw error
            }
        }
    }
}

// MARK: - Reading a record

extension StateDirectory {
    /// The JSON record in `name`, or nil when there is no such file. A file that is not JSON, not
    /// `what` this program writes, or of another format is `.corrupt` or `.unsupportedFormat`,
    /// naming the file, and left as it is.
    func readRecord<Record: Decodable>(
        _ type: Record.Type,
        from name: String,
        what: String,
        format: KeyPath<Record, String>,
        currentFormat: String
    ) throws(AccessoryStateError) -> Record? {
        let path = filePath(name)
        let contents: Data?
        do {
            contents = try read(name)
        } catch {
            throw AccessoryStateError(error)
        }
        guard let data = contents else { return nil }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            throw .corrupt(path: path, reason: "not valid JSON at \(error)")
        }
        let record: Record
        do {
            record = try JSONValueDecoder().decode(Record.self, from: document)
        } catch {
            throw .corrupt(path: path, reason: "not \(what) this program writes")
        }
        guard record[keyPath: format] == currentFormat else {
            throw .unsupportedFormat(path: path, format: record[keyPath: format])
        }
        return record
    }
}

// MARK: - AccessoryIdentityRecord

/// What the accessory keeps about itself across restarts: the NMI it uses (so a phone sees
/// the same device after a reboot) and how many times it has started.
public struct AccessoryIdentityRecord: Hashable, Sendable, Codable {
    public static let currentFormat = "awarebench-accessory-identity/1"

    public var format: String
    public var nmi: String
    public var boots: Int

    /// The largest boot count a stored identity may hold: the largest integer every JSON reader
    /// keeps exactly (2^53 - 1, RFC 8259 6), so counting the next boot can never overflow.
    public static let maximumBoots = (1 << 53) - 1

    public init(nmi: MACAddress, boots: Int) {
        format = Self.currentFormat
        self.nmi = nmi.description
        self.boots = boots
    }

    public var address: MACAddress? { MACAddress(string: nmi) }
}

// MARK: - FactoryResetSummary

/// What `AccessoryStateDirectory.factoryReset()` removed, for the person who asked.
public struct FactoryResetSummary: Hashable, Sendable, CustomStringConvertible {
    /// Paired devices forgotten; nil when the pairing store was damaged and could not be counted.
    public var pairedDevices: Int?
    public var removedOwnNIK: Bool
    /// identity.json (the NMI and the boot count).
    public var removedIdentity: Bool

    public init(pairedDevices: Int?, removedOwnNIK: Bool, removedIdentity: Bool) {
        self.pairedDevices = pairedDevices
        self.removedOwnNIK = removedOwnNIK
        self.removedIdentity = removedIdentity
    }

    public var removedNothing: Bool { pairedDevices == 0 && !removedOwnNIK && !removedIdentity }

    /// "removed 2 paired devices and the identity".
    public var description: String {
        if removedNothing { return "nothing to remove: no paired devices and no identity" }
        let devices =
            switch pairedDevices {
            case nil: "the damaged pairing store"
            case 1: "1 paired device"
            case let count?: "\(count) paired devices"
            }
        // The own NIK is part of who the device is, as its NMI is.
        return "removed \(devices)" + (removedIdentity || removedOwnNIK ? " and the identity" : "")
    }
}

// MARK: - AccessoryStateError

/// Why the accessory's state directory cannot be used. Nothing in it is ever replaced
/// silently: a file that does not read is reported, and left for a person to look at.
public enum AccessoryStateError: Error, Hashable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case unusable(path: String, reason: String)
    case inUse(path: String)
    case corrupt(path: String, reason: String)
    case unsupportedFormat(path: String, format: String)
    /// Another user could write it: refused, left as it is.
    case insecure(path: String, reason: String)
    /// The pairing store refused a change (`.pairedDeviceLimit`, `.invalidRecord`).
    case pairingStore(DeviceStateError)

    /// The same problem in the accessory's words.
    public init(_ error: DeviceStateError) {
        switch error {
        case .notADirectory(let path): self = .notADirectory(path)
        case .unusable(let path, let reason): self = .unusable(path: path, reason: reason)
        case .inUse(let path): self = .inUse(path: path)
        case .corrupt(let path, let reason): self = .corrupt(path: path, reason: reason)
        case .unsupportedFormat(let path, let format): self = .unsupportedFormat(path: path, format: format)
        case .insecure(let path, let reason): self = .insecure(path: path, reason: reason)
        case .pairedDeviceLimit, .invalidRecord: self = .pairingStore(error)
        }
    }

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) exists and is not a directory"
        case .unusable(let path, let reason): "cannot use \(path): \(reason)"
        case .inUse(let path):
            "\(path) is in use by another accessory-emu (it holds \(path)/lock); give each accessory its own --state-dir"
        case .corrupt(let path, let reason):
            "\(path) is damaged (\(reason)); it was left as it is: move it away to start afresh"
        case .unsupportedFormat(let path, let format):
            "\(path) has format \"\(format)\", which this accessory-emu does not know"
        case .insecure(let path, let reason): "refusing to use \(path): \(reason)"
        case .pairingStore(let error): error.description
        }
    }
}

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
        let contents: Data?
        do {
            contents = try directory.read(Self.identityFileName)
        } catch {
            throw AccessoryStateError(error)
        }
        guard let data = contents else { return nil }
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
        do {
            try directory.writeAtomically(data, to: Self.identityFileName)
        } catch {
            throw AccessoryStateError(error)
        }
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

    /// The factory reset: forgets every paired phone, the own NIK and the identity, so the
    /// accessory comes back as a new device (a new NMI, boot 1). The directory and its lock stay.
    /// A damaged pairing store or identity is removed too: resetting is how a person starts afresh.
    public func factoryReset() throws(AccessoryStateError) -> FactoryResetSummary {
        do throws(DeviceStateError) {
            let contents = try readableContents()
            let hadStore = try pairingStore.reset()
            let hadIdentity = try directory.remove(Self.identityFileName)
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

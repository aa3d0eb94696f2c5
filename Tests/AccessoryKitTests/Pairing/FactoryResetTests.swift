import AwareCore
import AwareDevice
import AwareWire
import Foundation
import Testing

@testable import AccessoryKit

/// The accessory's state directory over the shared `StateDirectory`, and its factory reset.
@Suite struct FactoryResetTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("awb-reset-\(UUID().uuidString.prefix(8))").path
    }

    static func record(_ last: UInt8) -> PairingRecord {
        PairingRecord(
            peerNMI: MACAddress(0x02, 0xB0, 0, 0, 0, last),
            peerNIK: Array(repeating: last, count: 16),
            npk: Array(repeating: last, count: 32),
            akm: .sae,
            cipherSuite: 7,
            pairedAt: 1_700_000_000
        )
    }

    @Test func resetRemovesThePeersTheOwnNIKAndTheIdentity() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let state = try AccessoryStateDirectory(path: path)
        _ = try state.boot(proposedAddress: MACAddress(0x02, 0, 0, 0, 0, 9), profileFixesAddress: false)
        _ = try state.pairingStore.ownNIK { Array(repeating: 0xA5, count: 16) }
        try state.pairingStore.upsert(Self.record(1), cap: 8)
        try state.pairingStore.upsert(Self.record(2), cap: 8)
        let summary = try state.factoryReset()
        #expect(summary == FactoryResetSummary(pairedDevices: 2, removedOwnNIK: true, removedIdentity: true))
        #expect(summary.description == "removed 2 paired devices and the identity")
        #expect(try state.readIdentity() == nil)
        #expect(try state.pairingStore.load() == .empty)
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
        #expect(names == ["lock"])
        // The next boot is a new device.
        let next = try state.boot(proposedAddress: MACAddress(0x02, 0, 0, 0, 0, 7), profileFixesAddress: false)
        #expect(next.boots == 1)
        #expect(next.address == MACAddress(0x02, 0, 0, 0, 0, 7))
    }

    @Test func aDamagedStoreIsResetToo() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let state = try AccessoryStateDirectory(path: path)
        try Data("{\"format\": 1, \"peers\": 7}".utf8).write(to: URL(fileURLWithPath: path + "/pairings.json"))
        #expect(throws: DeviceStateError.self) { try state.pairingStore.load() }
        let summary = try state.factoryReset()
        #expect(summary == FactoryResetSummary(pairedDevices: nil, removedOwnNIK: false, removedIdentity: false))
        #expect(summary.description == "removed the damaged pairing store")
        #expect(try state.pairingStore.load() == .empty)
    }

    @Test func anEmptyDirectoryHasNothingToRemove() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let state = try AccessoryStateDirectory(path: path)
        let summary = try state.factoryReset()
        #expect(summary.removedNothing)
        #expect(summary.description == "nothing to remove: no paired devices and no identity")
    }

    @Test func summariesInWords() {
        #expect(
            FactoryResetSummary(pairedDevices: 1, removedOwnNIK: false, removedIdentity: true).description
                == "removed 1 paired device and the identity"
        )
        #expect(
            FactoryResetSummary(pairedDevices: 0, removedOwnNIK: false, removedIdentity: true).description
                == "removed 0 paired devices and the identity"
        )
    }

    @Test func theAccessoryDirectoryKeepsItsOwnInUseMessage() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try AccessoryStateDirectory(path: path)
        #expect(throws: AccessoryStateError.inUse(path: path)) { try AccessoryStateDirectory(path: path) }
        #expect(AccessoryStateError.inUse(path: path).description.contains("in use by another accessory-emu"))
        // The pairing store shares the accessory's lock rather than taking a second one.
        #expect(throws: DeviceStateError.inUse(path: path)) { try PairingStore(path: path) }
        withExtendedLifetime(first) {}
    }

    @Test func theCapComesFromTheProfile() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let state = try AccessoryStateDirectory(path: path)
        let cap = PairingSettings(maxPairedDevices: 1).maxPairedDevices
        try state.pairingStore.upsert(Self.record(1), cap: cap)
        #expect(throws: DeviceStateError.pairedDeviceLimit(1)) {
            try state.pairingStore.upsert(Self.record(2), cap: cap)
        }
        #expect(AccessoryStateError(.pairedDeviceLimit(1)) == .pairingStore(.pairedDeviceLimit(1)))
    }
}

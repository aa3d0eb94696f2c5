import AwareCore
import AwareDevice
import AwareRadio
import AwareTestSupport
import Foundation
import Testing

@testable import AccessoryKit
@testable import ConformanceKit

/// Issue 21, finding 2: with `pairings.json` unwritable the phone was told "paired; both sides
/// cache keys" while the accessory kept the pairing in memory only, so after a restart the phone's
/// reconnect found no keys (5 of 5 runs). A pairing is complete only once its keys are stored.
@Suite struct PairingDurabilityTests {
    typealias Bench = PairedDeviceLimitTests.Bench

    /// The store cannot be written: a directory stands where `pairings.json` was, as a damaged
    /// or full disk would refuse the write. Returns what the file held.
    static func breakStore(_ store: PairingStore) throws -> Data? {
        let path = store.directory.filePath(PairingStore.fileName)
        let held = FileManager.default.contents(atPath: path)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return held
    }

    @Test func aPairingWhoseKeysCannotBeStoredIsNotCompleted() throws {
        let bench = try Bench(maxPairedDevices: 8, whenFull: .refuse)
        let (phone, result) = try bench.join(seed: 41)
        let held = try Self.breakStore(bench.store)
        let outcome = try #require(bench.pair(phone, result))
        // The phone is told the truth: no NIK came back, so nothing is cached.
        #expect(outcome.result == .paired)
        #expect(outcome.reason == "no-nik")
        #expect(!outcome.keysCached)
        #expect(bench.events(named: "nik_exchanged").isEmpty)
        #expect(bench.events(named: "error").count == 1)
        let notKept = bench.events(named: "pairing_not_kept")
        #expect(notKept.count == 1)
        #expect(notKept.first?.contains(#""peer":"\#(phone.address)""#) == true)

        // Once the store is writable again a pairing completes and survives a restart.
        let path = bench.store.directory.filePath(PairingStore.fileName)
        try FileManager.default.removeItem(atPath: path)
        if let held { try held.write(to: URL(fileURLWithPath: path)) }
        let again = try #require(bench.pair(phone, try bench.discover(phone)))
        #expect(again.keysCached)
        try bench.restart()
        #expect(try bench.reconnect(phone)?.result == .reconnected)
    }

    /// The phone's side: when `--phone-state` cannot be written after the NIKs came, `pair` says
    /// so instead of "paired" with keys it will not have.
    @Test func aPhoneThatCannotStoreTheKeysSaysSo() throws {
        let bench = try Bench(maxPairedDevices: 8, whenFull: .refuse)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("awb-phone-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try PairingStore(path: directory)
        let phone = Phone(air: bench.air, seed: 42, position: .init(x: 2, y: 1), pairingStore: store)
        try phone.start()
        let result = try bench.discover(phone)
        _ = try Self.breakStore(store)
        let outcome = try #require(bench.pair(phone, result))
        #expect(outcome.result == .failed)
        #expect(outcome.reason == "phone-store-failed")
        #expect(outcome.detail.contains("nothing was kept"))
        #expect(phone.pairing.manager.records.isEmpty)
    }
}

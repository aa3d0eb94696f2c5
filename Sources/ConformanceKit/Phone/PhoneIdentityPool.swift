import AwareWire
import Foundation

/// The runner's phones as an accessory that outlives a test sees them: a few devices, each with
/// its own NAN Identity Key, that come back test after test.
///
/// An accessory the runner does not start (socket air, a real radio) keeps every phone that
/// ever paired with it, up to its `maxPairedDevices` (8 for the shipped drone). If each test's
/// phone were a new device, the catalogue's pairing tests alone would fill that store and the
/// accessory would rightly refuse the rest. A real iPhone is one device with one NIK, which it
/// keeps across connections while it randomises its NMI (apple-peer-model.md; the accessory
/// finds it again through its NIK, nan-wire-reference.md 2.17). So is the runner's phone: each
/// test still gets an NMI of its own (from its seed), but its NIK comes from this pool, and an
/// accessory that stores pairings by NIK (as `accessory-emu` does, and as the NIK exchange is
/// meant for) replaces the phone's earlier pairing instead of adding one. Tests that run at
/// the same time hold different identities, so one test's pairing never replaces the record
/// another test is about to verify.
///
/// The identities are fixed (derived from a constant, not the run's seed), so runs with other
/// seeds against the same accessory reuse them too; with `--jobs 1` every test gets identity 0
/// and the run replays from its seed.
public final class PhoneIdentityPool: @unchecked Sendable {
    /// One of the runner's phones: the index says which, the NIK is what the accessory keeps.
    public struct Identity: Hashable, Sendable {
        public var index: Int
        public var nik: [UInt8]
    }

    private let lock = NSLock()
    private var leased: Set<Int> = []

    public init() {}

    /// The lowest identity no running test holds. Return it with ``release(_:)``.
    public func lease() -> Identity {
        lock.lock()
        defer { lock.unlock() }
        var index = 0
        while leased.contains(index) { index += 1 }
        leased.insert(index)
        return Self.identity(index)
    }

    public func release(_ identity: Identity) {
        lock.lock()
        defer { lock.unlock() }
        leased.remove(identity.index)
    }

    /// How many identities are held now (for tests of the pool).
    public var leasedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return leased.count
    }

    /// Identity `index`: 16 octets drawn from the runner's seeded generator under a constant
    /// seed of its own. Fixed and distinct, and they look like the random keys a phone draws.
    public static func identity(_ index: Int) -> Identity {
        var generator = SeededGenerator(seed: 0x4157_4250_4E49_4B00 ^ UInt64(truncatingIfNeeded: index))
        return Identity(index: index, nik: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

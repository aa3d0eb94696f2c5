import AwareCore
import AwareWire
import Foundation

/// The runner's phones as an accessory that outlives a test sees them: a few devices, each with
/// its own NAN Identity Key, that come back test after test.
///
/// An accessory the runner does not start (socket air, a real radio) keeps every phone that
/// ever paired with it, up to its `maxPairedDevices` (8 for the shipped drone). If each test's
/// phone were a new device, the catalogue's pairing tests alone would fill that store and the
/// accessory would rightly refuse the rest. A real iPhone is one device with one NIK, which it
/// keeps across connections (nan-wire-reference.md 3.6, 3.7; an accessory finds a peer whose
/// NMI changed through its NIK, 2.17). So is the runner's phone: each
/// test still gets an NMI of its own (from its seed), but its NIK comes from this pool, and an
/// accessory that stores pairings by NIK (as `accessory-emu` does, and as the NIK exchange is
/// meant for) replaces the phone's earlier pairing instead of adding one. Tests that run at
/// the same time hold different identities, so one test's pairing never replaces the record
/// another test is about to verify.
///
/// The identities are fixed (derived from a constant, not the run's seed), so runs with other
/// seeds against the same accessory reuse them too. The NMIs are not: an accessory keeps the
/// pairwise key (NM-TK) of every NMI that paired with it and rightly drops unprotected frames
/// from it, so a second run whose phones came back under the NMIs of the first (same seeds)
/// could not even bootstrap. Nor its random draws: an accessory may remember what a phone sent
/// (`accessory-emu` rejects a PASN frame 3 it has seen before as a replay), and a second run
/// with the same seeds would send the first run's SAE commits again. Each run therefore draws
/// a salt that its phones' seeds (and so their NMIs, nonces and keys) are mixed with, as an
/// iPhone draws afresh; on these targets a seed fixes each test's own choices but not its
/// phone's draws (the accessory's state differs from run to run anyway).
public final class PhoneIdentityPool: @unchecked Sendable {
    /// One of the runner's phones: the index says which, the NIK is what the accessory keeps.
    public struct Identity: Hashable, Sendable {
        public var index: Int
        public var nik: [UInt8]
    }

    private let lock = NSLock()
    private var leased: Set<Int> = []
    /// This run's: mixed into every NMI its phones use.
    public let salt: UInt64

    public init(salt: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.salt = salt
    }

    /// The seed a phone of the test with `seed` draws from in this run.
    public func phoneSeed(_ seed: UInt64) -> UInt64 { seed ^ salt }

    /// The NMI of the phone of the test with `seed` in this run: locally administered, drawn
    /// from the seed and the run's salt.
    public func address(seed: UInt64) -> MACAddress { Phone.drawnAddress(seed: phoneSeed(seed)) }

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

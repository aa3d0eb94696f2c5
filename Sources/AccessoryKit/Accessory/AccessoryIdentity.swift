import AwareCore
import AwareWire

/// The accessory's NAN Management Interface address: the profile's `radio.nmi`, or one
/// derived from `radio.nmiSeed` (else the run's seed) so that runs are reproducible.
enum AccessoryIdentity {
    /// A locally administered unicast address (first octet 0x02, IEEE 802 clause 8.2)
    /// whose other five octets come from `seed`.
    static func address(fromSeed seed: UInt64) -> MACAddress {
        var generator = SeededGenerator(seed: seed ^ 0x4E4D_4953_4545_4421)
        let value = generator.next()
        return MACAddress(
            0x02,
            UInt8(truncatingIfNeeded: value >> 32),
            UInt8(truncatingIfNeeded: value >> 24),
            UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value)
        )
    }
}

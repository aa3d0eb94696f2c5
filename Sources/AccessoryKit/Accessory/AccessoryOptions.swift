import AwareCore
import AwareRadio
import AwareWire

/// How one run of the accessory behaves beyond its profile.
public struct AccessoryOptions: Hashable, Sendable {
    /// Seeds the accessory's deterministic randomness (instance IDs, backoff, cluster ID).
    public var seed: UInt64
    public var faults: Set<AccessoryFault>
    /// Unsynchronized service discovery instead of joining or forming a cluster.
    public var unsynchronized: Bool
    /// Where the accessory stands on the simulated air, in metres.
    public var position: StationConfiguration.Position
    /// Overrides the NMI the profile gives or implies.
    public var address: MACAddress?
    /// Which start this is, counted in the state directory; nil without one.
    public var boot: Int?
    /// Where PINs come from: the CSPRNG, or the seed on the simulated air so runs replay.
    public var pinSource: PINSource

    public init(
        seed: UInt64 = 1,
        faults: Set<AccessoryFault> = [],
        unsynchronized: Bool = false,
        position: StationConfiguration.Position = .origin,
        address: MACAddress? = nil,
        boot: Int? = nil,
        pinSource: PINSource = .systemRandom
    ) {
        self.pinSource = pinSource
        self.boot = boot
        self.seed = seed
        self.faults = faults
        self.unsynchronized = unsynchronized
        self.position = position
        self.address = address
    }
}

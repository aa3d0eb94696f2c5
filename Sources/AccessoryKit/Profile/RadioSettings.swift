import AwareCore
import AwareWire

/// Optional radio identity: a fixed NAN Management Interface address, or a seed from which the
/// emulator derives one, and the discovery channels.
public struct RadioSettings: Codable, Hashable, Sendable {
    /// Discovery channels when the profile names none: 6 (mandatory for NAN) and 149.
    public static let defaultDiscoveryChannels = [6, 149]

    /// A fixed unicast NMI, `02:00:00:00:00:01` form. Exclusive with `nmiSeed`.
    public var nmi: String?
    /// Seed for a reproducible random NMI. Exclusive with `nmi`.
    public var nmiSeed: UInt32?
    public var discoveryChannels: [Int]

    public init(nmi: String? = nil, nmiSeed: UInt32? = nil, discoveryChannels: [Int] = Self.defaultDiscoveryChannels) {
        self.nmi = nmi
        self.nmiSeed = nmiSeed
        self.discoveryChannels = discoveryChannels
    }

    public var nmiAddress: MACAddress? { nmi.flatMap { MACAddress(string: $0) } }
}

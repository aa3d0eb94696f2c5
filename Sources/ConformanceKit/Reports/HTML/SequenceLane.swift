import AwareCore
import AwareWire

/// A vertical line of the sequence diagram: one station address, or every group address at once
/// (NAN's SDFs and beacons go to the cluster's multicast address or to broadcast).
enum SequenceLane: Hashable, Sendable {
    case station(MACAddress)
    case group
    /// For a frame that names no transmitter (an ACK).
    case unknown

    init(_ address: MACAddress?) {
        guard let address else {
            self = .unknown
            return
        }
        self = address.isGroup ? .group : .station(address)
    }
}

import AwareCore
import AwareWire

/// What a ``DatagramFlow`` did with a received message.
public enum DatagramDelivery: Hashable, Sendable {
    /// Hand the payload to the application; `latency` is arrival time minus the sender's stamp.
    case delivered([UInt8], sequence: UInt32, latency: Interval)
    /// Arrived after the deadline and was dropped.
    case late(sequence: UInt32, latency: Interval)
    /// Seen before (or too old to tell) and was dropped.
    case duplicate(sequence: UInt32)
    /// Not a datagram of this flow.
    case ignored
}

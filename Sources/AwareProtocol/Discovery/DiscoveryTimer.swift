import AwareCore
import AwareWire

/// The timers a ``DiscoveryEngine`` arms. Arming a timer that is already armed moves it.
public enum DiscoveryTimer: Hashable, Sendable {
    /// USD: the next unsolicited Publish or active Subscribe of an instance.
    case announce(instanceID: UInt8)
    /// The instance's time to live ends.
    case timeToLive(instanceID: UInt8)
    /// Synchronized mode: the next frame queued for the window open on this channel is due.
    case windowTransmit(NANChannel)
}

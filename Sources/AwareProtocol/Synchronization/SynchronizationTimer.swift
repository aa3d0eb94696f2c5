import AwareCore
import AwareWire

/// The timers a ``SynchronizationEngine`` arms. Arming a timer that is already armed moves it.
public enum SynchronizationTimer: Hashable, Sendable {
    /// No cluster heard within the scan period: form one.
    case scanEnd
    case windowStart(NANChannel)
    case windowEnd(NANChannel)
    /// The sync beacon of the window open on this channel, at a random instant in it.
    case syncBeacon(NANChannel)
    /// A master's next discovery beacon.
    case discoveryBeacon
}

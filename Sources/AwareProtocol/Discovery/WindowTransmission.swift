import AwareCore
import AwareWire

/// Synchronized mode: a frame waiting for its instant inside a discovery window (see
/// ``WindowContention``).
struct WindowTransmission: Hashable, Sendable {
    enum Content: Hashable, Sendable {
        /// An unsolicited Publish or active Subscribe, built when it goes out so that it
        /// carries the instance's latest state, and dropped if the instance has ended.
        case announcement(ServiceRole, instanceID: UInt8)
        case frame(QueuedFrame)
    }

    var at: Instant
    var channel: NANChannel
    var content: Content
}

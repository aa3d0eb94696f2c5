import AwareWire

/// A reply or follow-up that could not go out at once, with the follow-up token to report
/// its TX status under.
struct QueuedFrame: Hashable, Sendable {
    var frame: ManagementFrame
    var followUpToken: UInt32?
    /// Which transmission of the frame this will be (follow-ups are retried when unacknowledged).
    var attempt = 1
}

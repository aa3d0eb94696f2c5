/// What a ``SocketAir`` has counted since it was created, for logs and tests.
public struct SocketAirStatistics: Hashable, Sendable {
    /// Frames this process put on the air (one per transmit, however many peers).
    public var framesSent = 0
    /// Frame datagrams received from other processes.
    public var framesReceived = 0
    /// Datagrams dropped because they were short, cut, or had a bad magic or version.
    public var malformedDropped = 0
    /// Well-formed datagrams of a type this version does not act on (unknown types).
    public var ignored = 0
    /// Side-channel events (message type 3) this process published.
    public var eventsSent = 0
    /// Side-channel events received from other processes.
    public var eventsReceived = 0
    /// TX statuses sent back for unicast frames addressed to a station here.
    public var acknowledgementsSent = 0
    /// TX statuses that matched a frame still waiting for one.
    public var acknowledgementsReceived = 0
    /// Unicast frames reported `acknowledged: false` because no TX status came in time.
    public var acknowledgementTimeouts = 0
    /// TX statuses that came after their timeout, or for no frame of ours.
    public var unmatchedAcknowledgements = 0
    /// Socket files of dead processes removed from the directory.
    public var staleSocketsRemoved = 0
    /// Datagrams not delivered to a live peer (its queue stayed full, or another error).
    public var sendFailures = 0
    /// Frames neither sent nor delivered because the modelled link was out of range.
    public var outOfRangeDropped = 0
    /// Frames a test's ``FrameImpairer`` lost, altered or held back.
    public var impaired = 0

    public init() {}
}

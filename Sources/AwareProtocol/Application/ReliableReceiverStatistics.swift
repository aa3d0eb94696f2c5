/// Counters of a ``ReliableReceiver``.
public struct ReliableReceiverStatistics: Hashable, Sendable {
    public var delivered = 0
    /// Segments that arrived ahead of a gap and were held.
    public var outOfOrder = 0
    /// Segments already delivered or already held.
    public var duplicates = 0
    /// Segments too far ahead for the receive buffer, left for the sender to retransmit.
    public var dropped = 0

    public init() {}
}

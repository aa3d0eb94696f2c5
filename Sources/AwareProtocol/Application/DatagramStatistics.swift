/// Counters of a ``DatagramFlow``.
public struct DatagramStatistics: Hashable, Sendable {
    public var sent = 0
    /// Distinct datagrams that arrived, late ones included.
    public var received = 0
    public var delivered = 0
    /// Sequence numbers skipped and not (yet) filled by a reordered arrival.
    public var lost = 0
    /// Arrived after a higher sequence number.
    public var reordered = 0
    public var late = 0
    public var duplicates = 0

    public init() {}
}

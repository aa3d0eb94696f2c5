/// Which frames a step acts on: the `nth` frame (1-based; nil: every one) of a kind from a
/// sender. Frames are counted as their senders hand them to the air: the air's own
/// retransmissions of a frame are the same frame, not the next one.
public struct FaultFrameSelector: Hashable, Sendable {
    public var kind: FaultFrameKind
    public var sender: FaultFrameSender
    public var nth: Int?

    public init(kind: FaultFrameKind, sender: FaultFrameSender = .any, nth: Int? = 1) {
        self.kind = kind
        self.sender = sender
        self.nth = nth
    }
}

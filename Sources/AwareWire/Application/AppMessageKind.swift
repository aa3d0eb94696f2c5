/// What an ``AppMessage`` carries: the bench's own application protocol, not a NAN structure.
/// A closed set: a kind the bench does not define is a parse error, because both ends are the
/// bench and an unknown kind means a version skew or a corrupted datagram.
public enum AppMessageKind: UInt8, Hashable, Sendable, CaseIterable {
    /// Unreliable telemetry (Multipeer "unreliable"): never acknowledged or retransmitted.
    case datagram = 0x01
    /// Reliable data (Multipeer "reliable"): acknowledged, retransmitted, delivered in order.
    case segment = 0x02
    /// Cumulative acknowledgement: the sequence is the next one the receiver expects.
    case ack = 0x03
    /// A request or response of the bench's control exchange (token, parameters).
    case control = 0x04
    case fileRequest = 0x10
    case fileHeader = 0x11
    case fileChunk = 0x12
    case fileEnd = 0x13
    case fileError = 0x14

    public var name: String {
        switch self {
        case .datagram: "Datagram"
        case .segment: "Segment"
        case .ack: "Ack"
        case .control: "Control"
        case .fileRequest: "File Request"
        case .fileHeader: "File Header"
        case .fileChunk: "File Chunk"
        case .fileEnd: "File End"
        case .fileError: "File Error"
        }
    }

    /// Whether messages of this kind travel on the reliable flow (sequenced and acknowledged).
    public var isReliable: Bool {
        switch self {
        case .datagram, .ack: false
        default: true
        }
    }
}

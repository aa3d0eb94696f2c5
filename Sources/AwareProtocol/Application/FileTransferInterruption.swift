import AwareCore
import AwareWire

/// Why a transfer stopped before the end.
public enum FileTransferInterruption: Hashable, Sendable, CustomStringConvertible {
    /// The reliable flow gave up retransmitting.
    case linkLost(ReliableFailure)
    /// Nothing arrived from the server for this long while the transfer was under way.
    case peerSilent(Interval)
    /// The driver reported the link gone (``FileClient/linkDropped()``).
    case linkDropped
    /// On resume the server announced a different size or digest: the octets held are not its file's.
    case fileChanged
    /// The server sent something out of order (a chunk at the wrong offset, a chunk past the end).
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .linkLost(let failure): failure.description
        case .peerSilent(let interval): "the server was silent for \(interval)"
        case .linkDropped: "link dropped"
        case .fileChanged: "the server's file changed between attempts"
        case .protocolViolation(let text): "protocol violation: \(text)"
        }
    }
}

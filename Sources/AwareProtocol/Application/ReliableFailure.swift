/// Why a reliable flow stopped.
public enum ReliableFailure: Hashable, Sendable, CustomStringConvertible {
    /// The segment went unacknowledged through every retransmission: the link is taken as lost.
    case linkLost(sequence: UInt32, transmissions: Int)

    public var description: String {
        switch self {
        case .linkLost(let sequence, let transmissions):
            "link lost: segment \(sequence) unacknowledged after \(transmissions) transmissions"
        }
    }
}

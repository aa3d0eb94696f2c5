import AwareProtocol
import AwareWire

/// What a ``DataPathManager`` reports to its owner.
public enum DataPathEvent: Hashable, Sendable {
    /// Setup finished; the device carries the data path's frames from now on.
    case established(NDPLink)
    /// Setup failed; `peer` is the other side's NMI.
    case failed(DataLinkID, NDPFailure)
    /// The data path ended, by a Data Path Termination from either side.
    case terminated(DataLinkID, reason: NANReasonCode, byPeer: Bool)
    /// The peer stopped acknowledging data frames: the data path is gone without a Termination.
    case lost(DataLinkID)
}

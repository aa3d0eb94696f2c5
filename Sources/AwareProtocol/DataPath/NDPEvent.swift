import AwareCore
import AwareWire

/// What the owner feeds an NDP machine.
public enum NDPEvent: Hashable, Sendable {
    /// A NAN Action frame from `transmitter` (A2), already unprotected and parsed. The frame
    /// is re-serialized for MIC checks: parsing and writing are byte-exact, so the octets are
    /// the ones sent.
    case received(NANActionFrame, transmitter: MACAddress)
    case timerFired(NDPTimer)
    /// The owner ends the data path (or gives up setting it up): a Data Path Termination goes out.
    case terminate(reason: NANReasonCode)
}

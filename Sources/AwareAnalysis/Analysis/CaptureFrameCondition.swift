/// Whether a captured frame can be judged at all. A sniffer records what it heard, not what
/// was sent: a frame cut short by the snap length, or one whose FCS shows it was received
/// corrupted, says nothing about the transmitter and is skipped (reported as `info`).
public enum CaptureFrameCondition: Hashable, Sendable {
    /// The whole frame, its FCS (if the capture kept one) correct or absent.
    case whole
    /// The capture kept `captured` of the `original` octets of the packet (incl_len < orig_len).
    case truncated(captured: Int, original: Int)
    /// The radio flagged a bad FCS, or the FCS the capture kept does not match the frame.
    case badFCS
}

/// Receive-side replay detection for one temporal key (IEEE 802.11-2020 12.5.3.4.4 for CCMP,
/// 12.5.5.4.4 for GCMP): a frame is accepted only if its PN is strictly greater than the
/// highest PN accepted so far under that key.
///
/// The counter starts at 0, as the standard initializes it when the key is installed, so a
/// PN of 0 is never accepted (transmitters start at 1). Use one counter per key and per
/// peer; a new key needs a new counter.
public struct ReplayCounter: Hashable, Sendable {
    /// The highest PN accepted so far (0 before the first frame).
    public private(set) var highestAccepted: UInt64

    public init() {
        highestAccepted = 0
    }

    /// True, and remembers `pn`, when `pn` is greater than every PN accepted before and fits
    /// in 48 bits; false (counter unchanged) for a replayed or out-of-order frame.
    public mutating func accept(_ pn: UInt64) -> Bool {
        guard pn > highestAccepted, pn <= ProtectionHeader.maximumPacketNumber else { return false }
        highestAccepted = pn
        return true
    }
}

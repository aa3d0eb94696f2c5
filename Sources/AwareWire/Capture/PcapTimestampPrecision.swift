/// Whether a classic pcap file's second field is followed by micro- or nanoseconds, as its
/// magic number says (0xa1b2c3d4 / 0xa1b23c4d).
public enum PcapTimestampPrecision: Hashable, Sendable {
    case microseconds
    case nanoseconds
}

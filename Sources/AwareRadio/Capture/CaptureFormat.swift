/// The container a ``CaptureTap`` writes.
public enum CaptureFormat: String, Hashable, Sendable, CaseIterable {
    /// Classic libpcap, link type 127 (radiotap), microsecond timestamps.
    case pcap
    /// pcapng with nanosecond timestamps.
    case pcapng

    /// The format a file name's extension names (`.pcap`, `.pcapng`, any case), or nil.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

/// A frame received with a bad FCS is noise from the sniffer's point of view: the transmitter
/// sent something else. Radiotap says so (Flags bit 0x40), or the FCS the capture kept does not
/// match the CRC-32 of the frame. Skipped and noted.
public struct FrameCorruptedRule: AnalysisRule {
    public let id = "WA/CAP/FRAME-02"
    public let title = "Frames received with a bad FCS are skipped"
    public let severity = AnalysisSeverity.info
    public let source = "IEEE 802.11-2020 9.2.4.8 (FCS field); radiotap.org Flags (0x10 FCS at end, 0x40 bad FCS)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        context.frames.compactMap { frame in
            guard frame.condition == .badFCS else { return nil }
            return finding(frame.number, "received with a bad FCS (\(frame.octets.count) octets); frame not judged")
        }
    }
}

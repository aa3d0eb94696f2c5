/// One pcapng Interface Description Block: the link type, snap length and timestamp
/// resolution of the packets that name it.
public struct PcapngInterface: Hashable, Sendable {
    public var linkType: CaptureLinkType
    public var snapLength: UInt32
    public var timestampResolution: PcapngTimestampResolution
    /// The section (Section Header Block, counted from 0) the interface belongs to.
    public var section: Int

    public init(
        linkType: CaptureLinkType,
        snapLength: UInt32 = 0,
        timestampResolution: PcapngTimestampResolution = .microseconds,
        section: Int = 0
    ) {
        self.linkType = linkType
        self.snapLength = snapLength
        self.timestampResolution = timestampResolution
        self.section = section
    }
}

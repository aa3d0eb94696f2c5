import AwareCore
import AwareCrypto
import AwareWire

/// What the device needs to carry a data path's frames once its setup finished: the two data
/// interface addresses, the NDP's TK, and the committed schedule on the data channel.
public struct DataLinkConfiguration: Hashable, Sendable {
    public var id: DataLinkID
    public var localNDI: MACAddress
    public var peerNDI: MACAddress
    /// A3 of the data frames: the NAN Cluster ID.
    public var clusterID: MACAddress
    /// The NDP TK; empty for an open data path.
    public var key: [UInt8]
    /// CCMP-128 for CSID 1 and 7, GCMP-256 for CSID 2 and 8; nil for an open data path.
    public var cipher: PASNCipher?
    public var channel: NANChannel
    /// The 16 TU slots both sides committed to, numbered in a period of ``periodSlots``.
    public var slots: Set<Int>
    /// 32 (512 TU) unless the agreed schedule repeats only over a longer period (2.7).
    public var periodSlots: Int

    public init(
        id: DataLinkID,
        localNDI: MACAddress,
        peerNDI: MACAddress,
        clusterID: MACAddress,
        key: [UInt8],
        cipher: PASNCipher?,
        channel: NANChannel,
        slots: Set<Int>,
        periodSlots: Int = DataSlotClock.slotsPerPeriod
    ) {
        self.id = id
        self.localNDI = localNDI
        self.peerNDI = peerNDI
        self.clusterID = clusterID
        self.key = key
        self.cipher = cipher
        self.channel = channel
        self.slots = slots
        self.periodSlots = periodSlots
    }

    public var isSecured: Bool { cipher != nil }
}

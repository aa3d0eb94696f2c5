import AwareCore
import AwareWire

/// A management frame the radio delivered, with what the radio says about it. The frame is
/// parsed once at the edge and handed to every machine, which each ignore what is not theirs.
public struct ReceivedFrame: Hashable, Sendable {
    public var frame: ManagementFrame
    public var info: RxInfo

    public init(frame: ManagementFrame, info: RxInfo) {
        self.frame = frame
        self.info = info
    }

    /// Parses raw 802.11 octets (Frame Control to end of body, no FCS); nil for a frame that
    /// does not parse or is not a management frame, which no machine here acts on.
    public init?(bytes: [UInt8], info: RxInfo) {
        guard let parsed = try? IEEE80211Frame(bytes: bytes), let frame = parsed.managementFrame else {
            return nil
        }
        self.init(frame: frame, info: info)
    }

    /// The transmitter (A2): the peer's NMI for every NAN frame (nan-wire-reference.md 1.3).
    public var transmitter: MACAddress { frame.header.address2 }
}

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

/// Sequence numbers and TX-status cookies for the frames one machine sends.
///
/// Cookies carry the machine's tag in the top octet so that a TX status handed to every machine
/// of a station is claimed by the one that sent the frame and ignored by the others.
struct TransmitCounter: Hashable, Sendable {
    let tag: UInt8
    private var sequenceNumber: UInt16 = 0
    private var cookieCount: UInt64 = 0

    init(tag: UInt8) {
        self.tag = tag
    }

    /// The next 12-bit sequence number (IEEE 802.11-2020 9.2.4.4.2: modulo 4096).
    mutating func nextSequenceControl() -> SequenceControl {
        defer { sequenceNumber = (sequenceNumber &+ 1) & 0x0FFF }
        return SequenceControl(sequenceNumber: sequenceNumber)
    }

    mutating func nextCookie() -> UInt64 {
        cookieCount = (cookieCount &+ 1) & 0x00FF_FFFF_FFFF_FFFF
        return UInt64(tag) << 56 | cookieCount
    }

    func owns(cookie: UInt64) -> Bool { cookie >> 56 == UInt64(tag) }
}

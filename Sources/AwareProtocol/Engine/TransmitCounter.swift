import AwareWire

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

/// A frame a protocol machine asks the radio to send.
public struct TxRequest: Hashable, Sendable {
    /// The 802.11 frame from Frame Control on, without FCS.
    public var frame: [UInt8]
    public var channel: NANChannel
    /// Transmit power in dBm.
    public var powerDBm: Int
    /// Echoed in the TX status, so the machine can tell which frame was acknowledged.
    public var cookie: UInt64
    /// The PHY rate of this frame; nil sends it at the air's default rate (the 6 Mb/s basic
    /// rate that NAN management frames use).
    public var rate: TxRate?
    /// The EDCA parameters of the frame's access category; nil contends as DCF does (DIFS
    /// and the air's own CWmin/CWmax).
    public var access: ChannelAccess?
    /// A TSF Timestamp field the air fills in when the frame goes out, not when it was queued:
    /// a beacon's Timestamp is the TSF when it is transmitted (IEEE 802.11-2020 11.1.3.1), and a
    /// beacon that waited for a busy medium would otherwise carry a stale one, and every
    /// receiver would set its clock behind by the wait.
    public var timestampAtTransmission: TSFStamp?

    public init(
        frame: [UInt8],
        channel: NANChannel,
        powerDBm: Int = 20,
        cookie: UInt64 = 0,
        rate: TxRate? = nil,
        access: ChannelAccess? = nil
    ) {
        self.frame = frame
        self.channel = channel
        self.powerDBm = powerDBm
        self.cookie = cookie
        self.rate = rate
        self.access = access
    }

    /// The frame as it goes out at `localNanoseconds` on the transmitter's clock: with
    /// ``timestampAtTransmission`` filled in.
    public func frame(transmittedAt localNanoseconds: UInt64) -> [UInt8] {
        guard let stamp = timestampAtTransmission else { return frame }
        return stamp.stamping(frame, at: localNanoseconds)
    }
}

/// Where a frame's TSF Timestamp field is, and the transmitter's TSF against its local clock.
public struct TSFStamp: Hashable, Sendable {
    /// Octets from Frame Control to the 8-octet little-endian Timestamp field (24 in a beacon).
    public var fieldOffset: Int
    /// TSF (µs) = local time (µs) + this offset.
    public var tsfOffsetMicroseconds: Int64

    public init(fieldOffset: Int, tsfOffsetMicroseconds: Int64) {
        self.fieldOffset = fieldOffset
        self.tsfOffsetMicroseconds = tsfOffsetMicroseconds
    }

    /// `frame` with the TSF at `localNanoseconds` in the field (unchanged if it is too short).
    public func stamping(_ frame: [UInt8], at localNanoseconds: UInt64) -> [UInt8] {
        guard fieldOffset >= 0, frame.count >= fieldOffset + 8 else { return frame }
        let local = Int64(clamping: localNanoseconds / 1_000)
        let (sum, overflow) = local.addingReportingOverflow(tsfOffsetMicroseconds)
        let tsf = overflow ? (tsfOffsetMicroseconds > 0 ? UInt64(Int64.max) : 0) : UInt64(clamping: sum)
        var stamped = frame
        for index in 0..<8 { stamped[fieldOffset + index] = UInt8(truncatingIfNeeded: tsf >> (8 * index)) }
        return stamped
    }
}

/// Whether a unicast frame was acknowledged by its receiver (group-addressed frames are
/// never acknowledged and report `acknowledged: false`).
public struct TxStatus: Hashable, Sendable {
    public var cookie: UInt64
    public var acknowledged: Bool
    public var timestamp: Instant

    public init(cookie: UInt64, acknowledged: Bool, timestamp: Instant) {
        self.cookie = cookie
        self.acknowledged = acknowledged
        self.timestamp = timestamp
    }
}

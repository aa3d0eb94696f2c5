/// What the kernel tells the radio without being asked: frames it registered for, transmit
/// status, remain-on-channel start and end, and a driver discovery engine's matches and
/// terminations. Parsed from a generic netlink message of the nl80211 family.
public enum NL80211Event: Hashable, Sendable {
    case frame(NL80211ReceivedFrame)
    case frameTransmitStatus(NL80211FrameTransmitStatus)
    /// The radio is now on the channel of the `REMAIN_ON_CHANNEL` request with this cookie.
    case remainOnChannel(cookie: UInt64, frequencyMHz: UInt32)
    /// The remain-on-channel period with this cookie ended (expired or cancelled).
    case remainOnChannelEnded(cookie: UInt64)
    case nanMatch(NL80211NANMatch)
    /// `NL80211_CMD_DEL_NAN_FUNCTION` as an event: a function ended (`cfg80211_nan_func_terminated`).
    case nanFunctionTerminated(cookie: UInt64, instanceID: UInt8, reason: UInt8)
    /// A command this radio does not act on (scan results, regulatory changes, ...).
    case other(command: UInt8)

    private typealias Attr = NL80211Constants.Attribute

    public init(_ message: GenericNetlinkMessage) throws(RadioError) {
        switch NL80211Constants.Command(rawValue: message.command) {
        case .frame:
            self = .frame(try NL80211ReceivedFrame(event: message))
        case .frameTransmitStatus:
            self = .frameTransmitStatus(try NL80211FrameTransmitStatus(event: message))
        case .remainOnChannel:
            self = .remainOnChannel(
                cookie: try message.required(Attr.cookie).u64Value(),
                frequencyMHz: try message.required(Attr.wiphyFrequency).u32Value()
            )
        case .cancelRemainOnChannel:
            self = .remainOnChannelEnded(cookie: try message.required(Attr.cookie).u64Value())
        case .nanMatch:
            self = .nanMatch(try NL80211NANMatch(event: message))
        case .deleteNANFunction:
            typealias Func = NL80211Constants.NANFunctionAttribute
            let function = try message.required(Attr.nanFunction).nestedAttributes()
            func value(_ key: Func) throws(RadioError) -> UInt8 {
                guard let attribute = function.first(where: { $0.type == key.rawValue }) else {
                    throw RadioError.missingAttribute(command: message.command, attribute: key.rawValue)
                }
                return try attribute.u8Value()
            }
            self = .nanFunctionTerminated(
                cookie: try message.required(Attr.cookie).u64Value(),
                instanceID: try value(.instanceID),
                reason: try value(.terminationReason)
            )
        default:
            self = .other(command: message.command)
        }
    }
}

// MARK: - NL80211ReceivedFrame

/// A management frame the kernel passed up because this socket registered for it
/// (`NL80211_CMD_FRAME` event, `nl80211_send_mgmt` in `net/wireless/nl80211.c`).
public struct NL80211ReceivedFrame: Hashable, Sendable {
    /// The 802.11 frame from frame control on, without FCS.
    public var frame: [UInt8]
    public var frequencyMHz: UInt32
    /// `NL80211_ATTR_RX_SIGNAL_DBM`, when the driver reports one.
    public var signalDBm: Int?

    public init(frame: [UInt8], frequencyMHz: UInt32, signalDBm: Int?) {
        self.frame = frame
        self.frequencyMHz = frequencyMHz
        self.signalDBm = signalDBm
    }

    private typealias Attr = NL80211Constants.Attribute

    init(event message: GenericNetlinkMessage) throws(RadioError) {
        frame = try message.required(Attr.frame).payload
        frequencyMHz = try message.required(Attr.wiphyFrequency).u32Value()
        // The kernel puts the signal as a u32 holding an s32 (`nla_put_u32(..., sig_dbm)`).
        signalDBm = try message.attribute(Attr.receiveSignalDBm.rawValue).map { (attribute) throws(RadioError) in
            Int(Int32(bitPattern: try attribute.u32Value()))
        }
    }
}

// MARK: - NL80211FrameTransmitStatus

/// Whether a frame sent with `NL80211_CMD_FRAME` was acknowledged
/// (`NL80211_CMD_FRAME_TX_STATUS`, `nl80211_frame_tx_status` in `net/wireless/nl80211.c`):
/// the cookie of the `FRAME` reply, the frame, and the `ACK` flag when the peer acknowledged.
public struct NL80211FrameTransmitStatus: Hashable, Sendable {
    public var cookie: UInt64
    public var acknowledged: Bool
    public var frame: [UInt8]

    public init(cookie: UInt64, acknowledged: Bool, frame: [UInt8]) {
        self.cookie = cookie
        self.acknowledged = acknowledged
        self.frame = frame
    }

    private typealias Attr = NL80211Constants.Attribute

    init(event message: GenericNetlinkMessage) throws(RadioError) {
        cookie = try message.required(Attr.cookie).u64Value()
        frame = message.attribute(Attr.frame.rawValue)?.payload ?? []
        guard let ack = message.attribute(Attr.ack.rawValue) else {
            acknowledged = false
            return
        }
        guard ack.payload.isEmpty else {
            throw RadioError.attributeSize(type: Attr.ack.rawValue, expected: 0, actual: ack.payload.count)
        }
        acknowledged = true
    }
}

/// The nl80211 requests the radio sends, as values. Pure: each returns the message tree, which
/// `GenericNetlinkMessage.serialized()` turns into octets; `NL80211Socket` sends them.
///
/// Attribute choices follow the kernel's handlers in `net/wireless/nl80211.c` (which
/// attributes each command requires) and what wpa_supplicant sends for NAN
/// (platform-notes.md 1.4).
public struct NL80211Request: Hashable, Sendable {
    /// `NLM_F_REQUEST`, `NLM_F_ACK`, `NLM_F_DUMP` (`linux/netlink.h`).
    public static let requestFlag: UInt16 = 0x0001
    public static let acknowledgeFlag: UInt16 = 0x0004
    public static let dumpFlags: UInt16 = 0x0300

    public var message: GenericNetlinkMessage

    /// Whether the kernel answers with several messages ended by `NLMSG_DONE`.
    public var isDump: Bool { message.flags & Self.dumpFlags == Self.dumpFlags }

    /// Any generic netlink request, for families other than nl80211 (the controller, `nlctrl`,
    /// which every kernel has, is how the socket edge is exercised where nl80211 is missing).
    init(message: GenericNetlinkMessage) {
        self.message = message
    }

    private init(familyID: UInt16, command: NL80211Constants.Command, flags: UInt16, attributes: [NetlinkAttribute]) {
        message = GenericNetlinkMessage(
            familyID: familyID,
            command: command.rawValue,
            flags: flags,
            attributes: attributes
        )
    }

    private init(familyID: UInt16, command: NL80211Constants.Command, attributes: [NetlinkAttribute]) {
        self.init(
            familyID: familyID,
            command: command,
            flags: Self.requestFlag | Self.acknowledgeFlag,
            attributes: attributes
        )
    }

    private typealias Attr = NL80211Constants.Attribute

    /// `NL80211_CMD_GET_INTERFACE` for one netdev: the reply (`NEW_INTERFACE`) names its
    /// wiphy, wdev, type and address.
    public static func getInterface(familyID: UInt16, interfaceIndex: UInt32) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .getInterface,
            attributes: [.u32(Attr.interfaceIndex.rawValue, interfaceIndex)]
        )
    }

    /// `NL80211_CMD_GET_WIPHY` as a split dump filtered to one wiphy: since Linux 3.10 the full
    /// description (commands, frame types, extended features) only comes in split form, as
    /// `iw` and wpa_supplicant ask for it (`nl80211_dump_wiphy`).
    public static func getWiphy(familyID: UInt16, wiphy: UInt32) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .getWiphy,
            flags: requestFlag | dumpFlags,
            attributes: [.u32(Attr.wiphy.rawValue, wiphy), .flag(Attr.splitWiphyDump.rawValue)]
        )
    }

    /// `NL80211_CMD_NEW_INTERFACE` for a NAN device on `wiphy`. With `SOCKET_OWNER` the
    /// kernel removes it when the socket closes, and sends its NAN events to that socket only.
    public static func newNANInterface(familyID: UInt16, wiphy: UInt32, name: String) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .newInterface,
            attributes: [
                .u32(Attr.wiphy.rawValue, wiphy),
                .u32(Attr.interfaceType.rawValue, NL80211Constants.InterfaceType.nan.rawValue),
                .bytes(Attr.interfaceName.rawValue, Array(name.utf8) + [0]),
                .flag(Attr.socketOwner.rawValue),
            ]
        )
    }

    /// `NL80211_CMD_START_NAN`. The master preference must be 2...254 (1 and 255 are reserved
    /// for certification, `linux/nl80211.h`); `bands` is a bitmap of `Band.bandsBit`.
    public static func startNAN(
        familyID: UInt16,
        device: NL80211Device,
        masterPreference: UInt8,
        bands: UInt32
    ) throws(RadioError) -> NL80211Request {
        guard (2...254).contains(masterPreference) else {
            throw RadioError.invalidRequest(
                "NAN master preference \(masterPreference) is outside 2...254 (1 and 255 are reserved)"
            )
        }
        return NL80211Request(
            familyID: familyID,
            command: .startNAN,
            attributes: [
                device.attribute, .u8(Attr.nanMasterPreference.rawValue, masterPreference),
                .u32(Attr.bands.rawValue, bands),
            ]
        )
    }

    public static func stopNAN(familyID: UInt16, device: NL80211Device) -> NL80211Request {
        NL80211Request(familyID: familyID, command: .stopNAN, attributes: [device.attribute])
    }

    /// `NL80211_CMD_ADD_NAN_FUNCTION`; the reply carries the cookie and instance ID.
    public static func addNANFunction(
        familyID: UInt16,
        device: NL80211Device,
        function: NL80211NANFunction
    ) throws(RadioError) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .addNANFunction,
            attributes: [device.attribute, try function.attribute()]
        )
    }

    /// `NL80211_CMD_DEL_NAN_FUNCTION` by the cookie `addNANFunction`'s reply gave.
    public static func deleteNANFunction(familyID: UInt16, device: NL80211Device, cookie: UInt64) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .deleteNANFunction,
            attributes: [device.attribute, .u64(Attr.cookie.rawValue, cookie)]
        )
    }

    /// `NL80211_CMD_REGISTER_FRAME`: received frames that match come to the sending socket
    /// (unicast to its port), so it must be the socket that reads events.
    public static func registerFrame(
        familyID: UInt16,
        device: NL80211Device,
        registration: NL80211FrameRegistration
    ) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .registerFrame,
            attributes: [
                device.attribute, .u16(Attr.frameType.rawValue, registration.frameType),
                .bytes(Attr.frameMatch.rawValue, registration.match),
            ]
        )
    }

    /// `NL80211_CMD_REMAIN_ON_CHANNEL` (how wpa_supplicant listens for NAN USD). The reply
    /// carries the cookie; the kernel announces the start and the end as events.
    public static func remainOnChannel(
        familyID: UInt16,
        device: NL80211Device,
        frequencyMHz: UInt32,
        durationMilliseconds: UInt32
    ) -> NL80211Request {
        NL80211Request(
            familyID: familyID,
            command: .remainOnChannel,
            attributes: [
                device.attribute, .u32(Attr.wiphyFrequency.rawValue, frequencyMHz),
                .u32(Attr.duration.rawValue, durationMilliseconds),
            ]
        )
    }

    public static func cancelRemainOnChannel(familyID: UInt16, device: NL80211Device, cookie: UInt64) -> NL80211Request
    {
        NL80211Request(
            familyID: familyID,
            command: .cancelRemainOnChannel,
            attributes: [device.attribute, .u64(Attr.cookie.rawValue, cookie)]
        )
    }

    /// `NL80211_CMD_FRAME`: transmit one management frame (from frame control on, no FCS).
    /// With a frequency the kernel may go off channel for it (`OFFCHANNEL_TX_OK`), as
    /// wpa_supplicant's `offchannel_send_action` does for USD; on a NAN device the driver
    /// picks the discovery window and no frequency is given. The reply carries the cookie
    /// that `FRAME_TX_STATUS` will echo.
    public static func frame(
        familyID: UInt16,
        device: NL80211Device,
        frame: [UInt8],
        frequencyMHz: UInt32?,
        waitMilliseconds: UInt32? = nil
    ) -> NL80211Request {
        var attributes = [device.attribute]
        if let frequencyMHz {
            attributes.append(.u32(Attr.wiphyFrequency.rawValue, frequencyMHz))
            attributes.append(.flag(Attr.offchannelTransmitOK.rawValue))
        }
        if let waitMilliseconds { attributes.append(.u32(Attr.duration.rawValue, waitMilliseconds)) }
        attributes.append(.bytes(Attr.frame.rawValue, frame))
        return NL80211Request(familyID: familyID, command: .frame, attributes: attributes)
    }
}

// MARK: - NL80211Device

/// What an nl80211 command is addressed to. A netdev (`wlan0`) is named by its ifindex; a NAN
/// device is a wdev without a netdev, so it has only a wdev ID (`NL80211_ATTR_WDEV`, u64; the
/// upper 32 bits are the wiphy index, `net/wireless/core.c` `cfg80211_register_wdev`).
public enum NL80211Device: Hashable, Sendable, CustomStringConvertible {
    case interfaceIndex(UInt32)
    case wirelessDevice(UInt64)

    /// The attribute that names this device in a request.
    public var attribute: NetlinkAttribute {
        switch self {
        case .interfaceIndex(let index): .u32(NL80211Constants.Attribute.interfaceIndex.rawValue, index)
        case .wirelessDevice(let wdev): .u64(NL80211Constants.Attribute.wdev.rawValue, wdev)
        }
    }

    public var description: String {
        switch self {
        case .interfaceIndex(let index): "ifindex \(index)"
        case .wirelessDevice(let wdev): "wdev 0x\(String(wdev, radix: 16))"
        }
    }
}

// MARK: - NL80211FrameRegistration

/// One `NL80211_CMD_REGISTER_FRAME`: the management frame type (a frame control value) and
/// the leading body octets a received frame must start with to be handed to this socket.
///
/// The set is the one wpa_supplicant registers on a NAN device (hostap
/// `src/drivers/driver_nl80211.c`, platform-notes.md 1.4): NAN SDFs and NAFs are Public Action
/// frames (category 4, action 9 = vendor specific, OUI 50:6f:9a, OUI type 0x13 / 0x18), the
/// protected dual of an SDF uses category 9, and NAN pairing is PASN (authentication
/// algorithm 7, little-endian in the first two body octets).
public struct NL80211FrameRegistration: Hashable, Sendable {
    /// Frame control of the frame type: `0x00d0` Action, `0x00b0` Authentication.
    public var frameType: UInt16
    public var match: [UInt8]

    public init(frameType: UInt16, match: [UInt8]) {
        self.frameType = frameType
        self.match = match
    }

    /// Frame control (type management, subtype Action), as nl80211 wants it in
    /// `NL80211_ATTR_FRAME_TYPE`.
    public static let actionFrameType: UInt16 = 0x00d0
    /// Frame control (type management, subtype Authentication).
    public static let authenticationFrameType: UInt16 = 0x00b0

    public static let serviceDiscovery = NL80211FrameRegistration(
        frameType: actionFrameType,
        match: [0x04, 0x09, 0x50, 0x6f, 0x9a, 0x13]
    )
    public static let nanAction = NL80211FrameRegistration(
        frameType: actionFrameType,
        match: [0x04, 0x09, 0x50, 0x6f, 0x9a, 0x18]
    )
    public static let protectedServiceDiscovery = NL80211FrameRegistration(
        frameType: actionFrameType,
        match: [0x09, 0x09, 0x50, 0x6f, 0x9a, 0x13]
    )
    public static let pasnAuthentication = NL80211FrameRegistration(
        frameType: authenticationFrameType,
        match: [0x07, 0x00]
    )

    /// Everything discovery and pairing need.
    public static let nan: [NL80211FrameRegistration] = [
        serviceDiscovery, nanAction, protectedServiceDiscovery, pasnAuthentication,
    ]
}

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

import AwareCore
import AwareWire

/// A driver-run discovery engine found a peer function matching a local one
/// (`NL80211_CMD_NAN_MATCH`, `cfg80211_nan_match` in `net/wireless/nl80211.c`): the local
/// function by cookie and instance ID, the peer by address and instance ID, and the peer's
/// service specific info.
public struct NL80211NANMatch: Hashable, Sendable {
    /// The cookie `ADD_NAN_FUNCTION` returned for the local function.
    public var cookie: UInt64
    public var peerAddress: MACAddress
    /// `NL80211_NAN_FUNC_TYPE` in the peer nest (`cfg80211_nan_match` puts only the instance
    /// ID in the local one): publish when a publisher answered, subscribe when the driver
    /// replied to a subscriber, follow-up when one arrived.
    public var functionType: UInt8
    public var localInstanceID: UInt8
    public var peerInstanceID: UInt8
    public var serviceInfo: [UInt8]

    public init(
        cookie: UInt64,
        peerAddress: MACAddress,
        functionType: UInt8,
        localInstanceID: UInt8,
        peerInstanceID: UInt8,
        serviceInfo: [UInt8]
    ) {
        self.cookie = cookie
        self.peerAddress = peerAddress
        self.functionType = functionType
        self.localInstanceID = localInstanceID
        self.peerInstanceID = peerInstanceID
        self.serviceInfo = serviceInfo
    }

    private typealias Attr = NL80211Constants.Attribute
    private typealias Func = NL80211Constants.NANFunctionAttribute
    private typealias Match = NL80211Constants.NANMatchAttribute

    init(event message: GenericNetlinkMessage) throws(RadioError) {
        cookie = try message.required(Attr.cookie).u64Value()
        let mac = try message.required(Attr.mac).payload
        guard let peerAddress = MACAddress(mac) else {
            throw RadioError.attributeSize(type: Attr.mac.rawValue, expected: 6, actual: mac.count)
        }
        self.peerAddress = peerAddress
        // The kernel opens these nests without NLA_F_NESTED (`nla_nest_start_noflag`).
        let match = try message.required(Attr.nanMatch).nestedAttributes()
        let local = try Self.function(Match.localFunction, in: match)
        let peer = try Self.function(Match.peerFunction, in: match)
        functionType = try Self.required(Func.type, in: peer).u8Value()
        localInstanceID = try Self.required(Func.instanceID, in: local).u8Value()
        peerInstanceID = try Self.required(Func.instanceID, in: peer).u8Value()
        // `cfg80211_nan_match` refuses to report a match with either instance ID 0.
        guard localInstanceID != 0, peerInstanceID != 0 else {
            throw RadioError.invalidReply("NL80211_CMD_NAN_MATCH with NL80211_NAN_FUNC_INSTANCE_ID 0")
        }
        serviceInfo = peer.first { $0.type == Func.serviceInfo.rawValue }?.payload ?? []
        // The kernel sends the length as a u8 (`cfg80211_nan_match_params.info_len`).
        guard serviceInfo.count <= NL80211Constants.nanServiceSpecificInfoMaxLength else {
            throw RadioError.attributeSize(
                type: Func.serviceInfo.rawValue,
                expected: NL80211Constants.nanServiceSpecificInfoMaxLength,
                actual: serviceInfo.count
            )
        }
    }

    private static func function(_ key: Match, in match: [NetlinkAttribute]) throws(RadioError) -> [NetlinkAttribute] {
        guard let nest = match.first(where: { $0.type == key.rawValue }) else {
            throw RadioError.missingAttribute(
                command: NL80211Constants.Command.nanMatch.rawValue,
                attribute: key.rawValue
            )
        }
        return try nest.nestedAttributes()
    }

    private static func required(_ key: Func, in function: [NetlinkAttribute]) throws(RadioError) -> NetlinkAttribute {
        guard let attribute = function.first(where: { $0.type == key.rawValue }) else {
            throw RadioError.missingAttribute(
                command: NL80211Constants.Command.nanMatch.rawValue,
                attribute: key.rawValue
            )
        }
        return attribute
    }
}

import AwareWire

/// A NAN function for a driver that runs the discovery engine itself
/// (`NL80211_CMD_ADD_NAN_FUNCTION`, nested `NL80211_ATTR_NAN_FUNC`, `linux/nl80211.h`
/// `enum nl80211_nan_func_attributes`). Only what the 6.1 ABI can say: a service ID, the
/// function's kind, its service specific info and TTL. There is no attribute for NAN
/// attributes such as SDEA or NPBA, which is why the radio does not drive discovery through
/// this path (docs/nl80211.md).
public struct NL80211NANFunction: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case publish(NL80211Constants.NANPublishType, broadcast: Bool)
        case subscribe(active: Bool)
        /// A follow-up to the peer function `peerInstanceID` on `destination`, from the local
        /// function `localInstanceID`.
        case followUp(peerInstanceID: UInt8, localInstanceID: UInt8, destination: MACAddress)
    }

    public var kind: Kind
    /// The 6-octet service ID (`NL80211_NAN_FUNC_SERVICE_ID_LEN`).
    public var serviceID: [UInt8]
    /// At most 255 octets (`NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN`).
    public var serviceInfo: [UInt8]
    /// In discovery windows; nil runs until deleted.
    public var ttl: UInt32?

    public init(kind: Kind, serviceID: [UInt8], serviceInfo: [UInt8] = [], ttl: UInt32? = nil) {
        self.kind = kind
        self.serviceID = serviceID
        self.serviceInfo = serviceInfo
        self.ttl = ttl
    }

    /// The nested `NL80211_ATTR_NAN_FUNC`, with the kernel's length limits checked here so a
    /// bad function is refused before it reaches the driver (`nl80211_nan_func_policy`).
    public func attribute() throws(RadioError) -> NetlinkAttribute {
        typealias Key = NL80211Constants.NANFunctionAttribute
        guard serviceID.count == NL80211Constants.nanServiceIDLength else {
            throw RadioError.attributeSize(
                type: Key.serviceID.rawValue,
                expected: NL80211Constants.nanServiceIDLength,
                actual: serviceID.count
            )
        }
        guard serviceInfo.count <= NL80211Constants.nanServiceSpecificInfoMaxLength else {
            throw RadioError.attributeSize(
                type: Key.serviceInfo.rawValue,
                expected: NL80211Constants.nanServiceSpecificInfoMaxLength,
                actual: serviceInfo.count
            )
        }
        var children: [NetlinkAttribute] = []
        switch kind {
        case .publish(let type, let broadcast):
            children.append(.u8(Key.type.rawValue, NL80211Constants.NANFunctionType.publish.rawValue))
            children.append(.bytes(Key.serviceID.rawValue, serviceID))
            children.append(.u8(Key.publishType.rawValue, type.rawValue))
            if broadcast { children.append(.flag(Key.publishBroadcast.rawValue)) }
        case .subscribe(let active):
            children.append(.u8(Key.type.rawValue, NL80211Constants.NANFunctionType.subscribe.rawValue))
            children.append(.bytes(Key.serviceID.rawValue, serviceID))
            if active { children.append(.flag(Key.subscribeActive.rawValue)) }
        case .followUp(let peer, let local, let destination):
            children.append(.u8(Key.type.rawValue, NL80211Constants.NANFunctionType.followUp.rawValue))
            children.append(.bytes(Key.serviceID.rawValue, serviceID))
            children.append(.u8(Key.followUpID.rawValue, peer))
            children.append(.u8(Key.followUpRequestorID.rawValue, local))
            children.append(.bytes(Key.followUpDestination.rawValue, destination.octets))
        }
        if let ttl { children.append(.u32(Key.ttl.rawValue, ttl)) }
        if !serviceInfo.isEmpty { children.append(.bytes(Key.serviceInfo.rawValue, serviceInfo)) }
        return .nested(NL80211Constants.Attribute.nanFunction.rawValue, children)
    }
}

import AwareCore
import AwareWire

/// A NAN function for a driver that runs the discovery engine itself
/// (`NL80211_CMD_ADD_NAN_FUNCTION`, nested `NL80211_ATTR_NAN_FUNC`, `linux/nl80211.h`
/// `enum nl80211_nan_func_attributes`). Only what the 6.1 ABI can say: the function's kind, a
/// service ID, close range, TTL, service specific info, an SRF and the two match filters.
/// There is no attribute for NAN attributes such as the SDEA, DCEA or NPBA
/// (docs/guides/nl80211.md, "What NAN function offload cannot carry").
public struct NL80211NANFunction: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// `NL80211_NAN_FUNC_PUBLISH_TYPE` and `NL80211_NAN_FUNC_PUBLISH_BCAST` (solicited
        /// publishes sent to the NAN broadcast address).
        case publish(NL80211Constants.NANPublishType, broadcast: Bool)
        /// `NL80211_NAN_FUNC_SUBSCRIBE_ACTIVE`.
        case subscribe(active: Bool)
        /// `NL80211_NAN_FUNC_FOLLOW_UP_ID` ("the instance ID for the follow up Service Discovery
        /// Frame": the SDA's Instance ID, the sender's own), `NL80211_NAN_FUNC_FOLLOW_UP_REQ_ID`
        /// (its Requestor Instance ID, the peer's) and `NL80211_NAN_FUNC_FOLLOW_UP_DEST`.
        case followUp(instanceID: UInt8, requestorInstanceID: UInt8, destination: MACAddress)
    }

    public var kind: Kind
    /// The 6-octet service ID (`NL80211_NAN_FUNC_SERVICE_ID_LEN`).
    public var serviceID: [UInt8]
    /// At most 255 octets (`NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN`).
    public var serviceInfo: [UInt8]
    /// In discovery windows ("strictly positive"); nil runs until deleted.
    public var ttl: UInt32?
    /// `NL80211_NAN_FUNC_CLOSE_RANGE`: the SDA's Discovery Range Limited bit.
    public var closeRange: Bool
    /// `NL80211_NAN_FUNC_SRF` (publish and subscribe only).
    public var serviceResponseFilter: ServiceResponseFilter?
    /// `NL80211_NAN_FUNC_RX_MATCH_FILTER`: one binary entry per item, empty for a wildcard.
    public var receiveMatchFilter: MatchingFilter?
    /// `NL80211_NAN_FUNC_TX_MATCH_FILTER`.
    public var transmitMatchFilter: MatchingFilter?

    public init(
        kind: Kind,
        serviceID: [UInt8],
        serviceInfo: [UInt8] = [],
        ttl: UInt32? = nil,
        closeRange: Bool = false,
        serviceResponseFilter: ServiceResponseFilter? = nil,
        receiveMatchFilter: MatchingFilter? = nil,
        transmitMatchFilter: MatchingFilter? = nil
    ) {
        self.kind = kind
        self.serviceID = serviceID
        self.serviceInfo = serviceInfo
        self.ttl = ttl
        self.closeRange = closeRange
        self.serviceResponseFilter = serviceResponseFilter
        self.receiveMatchFilter = receiveMatchFilter
        self.transmitMatchFilter = transmitMatchFilter
    }

    private typealias Key = NL80211Constants.NANFunctionAttribute

    /// The nested `NL80211_ATTR_NAN_FUNC`, with the kernel's limits checked here so a bad
    /// function is refused before it reaches the driver (`nl80211_nan_func_policy`,
    /// `nl80211_parse_nan_srf`: an SRF Bloom filter of 1...255 octets, a TTL above 0).
    public func attribute() throws(RadioError) -> NetlinkAttribute {
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
        if ttl == 0 { throw RadioError.invalidRequest("NL80211_NAN_FUNC_TTL must be strictly positive") }
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
        case .followUp(let instanceID, let requestorInstanceID, let destination):
            children.append(.u8(Key.type.rawValue, NL80211Constants.NANFunctionType.followUp.rawValue))
            children.append(.bytes(Key.serviceID.rawValue, serviceID))
            children.append(.u8(Key.followUpID.rawValue, instanceID))
            children.append(.u8(Key.followUpRequestorID.rawValue, requestorInstanceID))
            children.append(.bytes(Key.followUpDestination.rawValue, destination.octets))
        }
        if closeRange { children.append(.flag(Key.closeRange.rawValue)) }
        if let ttl { children.append(.u32(Key.ttl.rawValue, ttl)) }
        if !serviceInfo.isEmpty { children.append(.bytes(Key.serviceInfo.rawValue, serviceInfo)) }
        if let serviceResponseFilter { children.append(try Self.attribute(serviceResponseFilter)) }
        if let receiveMatchFilter { children.append(Self.attribute(Key.rxMatchFilter, receiveMatchFilter)) }
        if let transmitMatchFilter { children.append(Self.attribute(Key.txMatchFilter, transmitMatchFilter)) }
        return .nested(NL80211Constants.Attribute.nanFunction.rawValue, children)
    }

    /// `enum nl80211_nan_srf_attributes`: `NL80211_NAN_SRF_INCLUDE` (flag), then either
    /// `NL80211_NAN_SRF_BF` + `NL80211_NAN_SRF_BF_IDX` or `NL80211_NAN_SRF_MAC_ADDRS`, a nest
    /// of 6-octet entries (numbered 1, 2, ... as iw numbers them; the kernel reads each
    /// entry's payload, not its type). SRF Control's reserved bits have no attribute.
    private static func attribute(_ filter: ServiceResponseFilter) throws(RadioError) -> NetlinkAttribute {
        typealias SRF = NL80211Constants.NANSRFAttribute
        var children: [NetlinkAttribute] = []
        if filter.include { children.append(.flag(SRF.include.rawValue)) }
        switch filter.addressSet {
        case .bloomFilter(let octets):
            guard (1...NL80211Constants.nanSRFMaxLength).contains(octets.count) else {
                throw RadioError.attributeSize(
                    type: SRF.bloomFilter.rawValue,
                    expected: NL80211Constants.nanSRFMaxLength,
                    actual: octets.count
                )
            }
            children.append(.bytes(SRF.bloomFilter.rawValue, octets))
            children.append(.u8(SRF.bloomFilterIndex.rawValue, filter.bloomFilterIndex))
        case .addressList(let addresses):
            let entries = addresses.enumerated().map {
                NetlinkAttribute.bytes(UInt16($0.offset + 1), $0.element.octets)
            }
            children.append(.nested(SRF.macAddresses.rawValue, entries))
        }
        return .nested(Key.srf.rawValue, children)
    }

    /// A match filter: "a list of binary values" (`linux/nl80211.h`), entries numbered from 1;
    /// an empty entry is a wildcard item. At most 255 items fit a 255-octet filter.
    private static func attribute(_ key: Key, _ filter: MatchingFilter) -> NetlinkAttribute {
        .nested(key.rawValue, filter.items.enumerated().map { .bytes(UInt16($0.offset + 1), $0.element) })
    }
}

// MARK: - NL80211NANMatch

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

// MARK: - NL80211NANMatch+Frame

extension NL80211NANMatch {
    /// The SDF a role would have received had it run the discovery itself: a Service
    /// Descriptor built from the match, handed to the stations as a reception on the NAN
    /// function offload path (nan-wire-reference.md 1.1, 1.3, 2.4).
    ///
    /// * A1 is `localAddress` (the match is addressed to this device: a solicited Publish, a
    ///   Subscribe the driver already answered, or a Follow-up), A2 the peer
    ///   (`NL80211_ATTR_MAC`), A3 the NAN Network ID (the event names no cluster).
    /// * The SDA: `serviceID` (the event carries none; it is the local function's), Instance
    ///   ID = the peer's instance, Requestor Instance ID = `localInstanceID` (the role's own
    ///   instance, not the driver's), the Service Control type from the peer function's
    ///   `NL80211_NAN_FUNC_TYPE` (`cfg80211_nan_match_params.type`: PUBLISH, "we got a
    ///   discovery response"; SUBSCRIBE, "we replied to a subscriber"; FOLLOW_UP), and the
    ///   peer's service info, when there is any, as the SDA's Service Info.
    ///
    /// Throws for a function type outside `enum nl80211_nan_function_type`.
    public func serviceDiscoveryFrame(
        serviceID: ServiceID,
        localInstanceID: UInt8,
        localAddress: MACAddress
    ) throws(RadioError) -> [UInt8] {
        let type: ServiceControlType
        switch NL80211Constants.NANFunctionType(rawValue: functionType) {
        case .publish: type = .publish
        case .subscribe: type = .subscribe
        case .followUp: type = .followUp
        case nil:
            throw RadioError.invalidReply(
                "NL80211_CMD_NAN_MATCH: NL80211_NAN_FUNC_TYPE \(functionType) is not publish, subscribe or follow-up"
            )
        }
        let descriptor = ServiceDescriptorAttribute(
            serviceID: serviceID,
            instanceID: peerInstanceID,
            requestorInstanceID: localInstanceID,
            type: type,
            serviceInfo: serviceInfo.isEmpty ? nil : serviceInfo
        )
        let frame = ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.action),
                address1: localAddress,
                address2: peerAddress,
                address3: .nanNetworkID
            ),
            body: .serviceDiscovery(
                ServiceDiscoveryFrame(category: .publicAction, attributes: [.serviceDescriptor(descriptor)])
            )
        )
        return frame.wireBytes
    }
}

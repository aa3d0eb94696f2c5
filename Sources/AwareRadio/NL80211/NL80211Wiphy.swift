import AwareCore
import AwareWire

/// What a wiphy (a radio) can do, from the reply to a split `NL80211_CMD_GET_WIPHY` dump:
/// the kernel spreads one wiphy over several `NEW_WIPHY` messages (`nl80211_send_wiphy`,
/// `net/wireless/nl80211.c`), so the parts are merged.
public struct NL80211Wiphy: Hashable, Sendable {
    public var index: UInt32
    public var name: String?
    /// `NL80211_ATTR_SUPPORTED_IFTYPES`: raw `enum nl80211_iftype` values.
    public var supportedInterfaceTypes: Set<UInt32> = []
    /// `NL80211_ATTR_SUPPORTED_COMMANDS`: raw command numbers.
    public var supportedCommands: Set<UInt32> = []
    /// `NL80211_ATTR_EXT_FEATURES`: bit n of the bitmap is `enum nl80211_ext_feature_index` n.
    public var extendedFeatures: [UInt8] = []
    /// Per interface type, the frame types (frame control values) `NL80211_CMD_FRAME` may send.
    public var transmitFrameTypes: [UInt32: Set<UInt16>] = [:]
    /// Per interface type, the frame types `NL80211_CMD_REGISTER_FRAME` may ask for.
    public var receiveFrameTypes: [UInt32: Set<UInt16>] = [:]
    public var maxRemainOnChannelDuration: UInt32?
    /// Post-6.1 `NL80211_ATTR_NAN_CAPABILITIES` was present.
    public var reportsNANCapabilities = false
    /// `NL80211_NAN_CAPA_USERSPACE_DE`: the driver synchronises, userspace discovers.
    public var userspaceDiscoveryEngine = false

    public init(index: UInt32) {
        self.index = index
    }

    private typealias Attr = NL80211Constants.Attribute

    /// Merges the parts of a split dump. Every part must be a `NEW_WIPHY` for the same wiphy.
    public init(dump parts: [GenericNetlinkMessage]) throws(RadioError) {
        guard let first = parts.first else {
            throw RadioError.missingAttribute(
                command: NL80211Constants.Command.newWiphy.rawValue,
                attribute: Attr.wiphy.rawValue
            )
        }
        self.init(index: try Self.wiphyIndex(of: first))
        for part in parts { try merge(part) }
    }

    public func supports(_ type: NL80211Constants.InterfaceType) -> Bool {
        supportedInterfaceTypes.contains(type.rawValue)
    }

    public func supports(_ command: NL80211Constants.Command) -> Bool {
        supportedCommands.contains(UInt32(command.rawValue))
    }

    public func has(_ feature: NL80211Constants.ExtendedFeature) -> Bool {
        let byte = Int(feature.rawValue / 8)
        return byte < extendedFeatures.count && extendedFeatures[byte] & (1 << (feature.rawValue % 8)) != 0
    }

    private static func wiphyIndex(of message: GenericNetlinkMessage) throws(RadioError) -> UInt32 {
        guard message.command == NL80211Constants.Command.newWiphy.rawValue else {
            throw RadioError.unexpectedCommand(
                expected: NL80211Constants.Command.newWiphy.rawValue,
                actual: message.command
            )
        }
        return try message.required(Attr.wiphy).u32Value()
    }

    private mutating func merge(_ part: GenericNetlinkMessage) throws(RadioError) {
        let partIndex = try Self.wiphyIndex(of: part)
        guard partIndex == index else {
            throw RadioError.invalidReply("a dump for wiphy \(index) has a part for wiphy \(partIndex)")
        }
        for attribute in part.attributes {
            switch Attr(rawValue: attribute.type) {
            case .wiphyName:
                name = try attribute.stringValue()
            case .supportedInterfaceTypes:
                // Flags whose attribute type is the interface type (`nl80211_put_iftypes`).
                for child in try attribute.nestedAttributes() { supportedInterfaceTypes.insert(UInt32(child.type)) }
            case .supportedCommands:
                for child in try attribute.nestedAttributes() { supportedCommands.insert(try child.u32Value()) }
            case .extendedFeatures:
                extendedFeatures = attribute.payload
            case .transmitFrameTypes:
                try Self.mergeFrameTypes(attribute, into: &transmitFrameTypes)
            case .receiveFrameTypes:
                try Self.mergeFrameTypes(attribute, into: &receiveFrameTypes)
            case .maxRemainOnChannelDuration:
                maxRemainOnChannelDuration = try attribute.u32Value()
            case .nanCapabilities:
                reportsNANCapabilities = true
                let capabilities = try attribute.nestedAttributes()
                let userspace = NL80211Constants.NANCapabilityAttribute.userspaceDiscoveryEngine.rawValue
                userspaceDiscoveryEngine = capabilities.contains { $0.type == userspace }
            default:
                continue
            }
        }
    }

    /// `nl80211_send_mgmt_stypes`: one nest per interface type (attribute type = iftype),
    /// each holding u16 `NL80211_ATTR_FRAME_TYPE` entries.
    private static func mergeFrameTypes(
        _ attribute: NetlinkAttribute,
        into table: inout [UInt32: Set<UInt16>]
    ) throws(RadioError) {
        for perType in try attribute.nestedAttributes() {
            for entry in try perType.nestedAttributes() where entry.type == Attr.frameType.rawValue {
                table[UInt32(perType.type), default: []].insert(try entry.u16Value())
            }
        }
    }
}

// MARK: - NL80211Interface

/// The kernel's description of one interface: the reply to `NL80211_CMD_GET_INTERFACE`
/// (command `NEW_INTERFACE`, built by `nl80211_send_iface` in `net/wireless/nl80211.c`).
public struct NL80211Interface: Hashable, Sendable {
    public var interfaceIndex: UInt32?
    public var name: String?
    public var wiphy: UInt32
    public var wdev: UInt64?
    /// `enum nl80211_iftype`, raw: the kernel may report types this project has no name for.
    public var interfaceType: UInt32
    public var address: MACAddress?

    public init(
        interfaceIndex: UInt32?,
        name: String?,
        wiphy: UInt32,
        wdev: UInt64?,
        interfaceType: UInt32,
        address: MACAddress?
    ) {
        self.interfaceIndex = interfaceIndex
        self.name = name
        self.wiphy = wiphy
        self.wdev = wdev
        self.interfaceType = interfaceType
        self.address = address
    }

    private typealias Attr = NL80211Constants.Attribute

    public init(reply message: GenericNetlinkMessage) throws(RadioError) {
        guard message.command == NL80211Constants.Command.newInterface.rawValue else {
            throw RadioError.unexpectedCommand(
                expected: NL80211Constants.Command.newInterface.rawValue,
                actual: message.command
            )
        }
        wiphy = try message.required(Attr.wiphy).u32Value()
        interfaceType = try message.required(Attr.interfaceType).u32Value()
        interfaceIndex = try message.attribute(Attr.interfaceIndex.rawValue)?.u32Value()
        wdev = try message.attribute(Attr.wdev.rawValue)?.u64Value()
        name = try message.attribute(Attr.interfaceName.rawValue)?.stringValue()
        if let mac = message.attribute(Attr.mac.rawValue) {
            guard let address = MACAddress(mac.payload) else {
                throw RadioError.attributeSize(type: Attr.mac.rawValue, expected: 6, actual: mac.payload.count)
            }
            self.address = address
        } else {
            address = nil
        }
    }

    /// How requests address this interface: a netdev by its ifindex, a NAN device by wdev.
    public var device: NL80211Device? {
        if let interfaceIndex { return .interfaceIndex(interfaceIndex) }
        return wdev.map(NL80211Device.wirelessDevice)
    }

    /// The type's nl80211 name, for messages.
    public var typeName: String {
        NL80211Constants.InterfaceType(rawValue: interfaceType).map { "\($0)" } ?? "iftype \(interfaceType)"
    }
}

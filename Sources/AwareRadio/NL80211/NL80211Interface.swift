import AwareCore
import AwareWire

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

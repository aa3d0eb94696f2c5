/// The nl80211 numbers the NAN radio backend needs, owned by this project.
///
/// Values that exist in Linux 6.1 (Debian 12's `linux/nl80211.h`) are from platform-notes.md
/// 1.1 and are checked against that header by `NL80211ConstantsTests`. Values marked
/// "post-6.1" are from platform-notes.md 1.2 (hostap's `nl80211_copy.h`, synced with
/// wireless-next 2026-05-05): the installed header cannot provide them, and those marked
/// "wireless-next" may still change before a kernel release (earlier revisions of the 2025
/// NAN series ordered `NAN_NEW_CLUSTER` and `NAN_CAPABILITIES` differently).
public enum NL80211Constants {
    /// The generic netlink family name.
    public static let familyName = "nl80211"
    /// `NL80211_MULTICAST_GROUP_NAN`: NAN match and function-termination events.
    public static let nanMulticastGroup = "nan"
    /// `NL80211_NAN_FUNC_SERVICE_ID_LEN`.
    public static let nanServiceIDLength = 6
    /// `NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN`.
    public static let nanServiceSpecificInfoMaxLength = 255
    /// `NL80211_NAN_FUNC_SRF_MAX_LEN`: the longest SRF Bloom filter.
    public static let nanSRFMaxLength = 255

    /// `enum nl80211_commands` (the generic netlink command octet).
    public enum Command: UInt8, Sendable, CaseIterable {
        case getWiphy = 1
        /// The kernel's reply to `getWiphy` (one message per part in a split dump).
        case newWiphy = 3
        case getInterface = 5
        /// Also the kernel's reply to `getInterface`.
        case newInterface = 7
        case deleteInterface = 8
        case newKey = 11
        case deleteKey = 12
        case remainOnChannel = 55
        case cancelRemainOnChannel = 56
        case registerFrame = 58
        case frame = 59
        case frameTransmitStatus = 60
        case frameWaitCancel = 67
        case startNAN = 115
        case stopNAN = 116
        case addNANFunction = 117
        /// Also the function-termination event (there is no `NAN_FUNC_TERMINATED` command).
        case deleteNANFunction = 118
        case changeNANConfig = 119
        /// `NL80211_CMD_NAN_MATCH` (its doc comment calls it `NAN_FUNC_MATCH`).
        case nanMatch = 120
        /// Post-6.1 (2025 NAN series).
        case nanNextDWNotification = 158
        /// Post-6.1 (2025 NAN series).
        case nanClusterJoined = 159
        /// Post-6.1, wireless-next (NAN data path).
        case nanSetLocalSchedule = 161
        /// Post-6.1, wireless-next.
        case nanScheduleUpdateDone = 162
        /// Post-6.1, wireless-next.
        case nanSetPeerSchedule = 163
        /// Post-6.1, wireless-next.
        case nanULWUpdate = 164
        /// Post-6.1, wireless-next.
        case nanChannelEvacuation = 165
    }

    /// `enum nl80211_attrs` (top-level attribute types).
    public enum Attribute: UInt16, Sendable, CaseIterable {
        case wiphy = 1
        case wiphyName = 2
        case interfaceIndex = 3
        case interfaceName = 4
        /// u32, an `InterfaceType`.
        case interfaceType = 5
        case mac = 6
        case keyData = 7
        case keyIndex = 8
        case keyCipher = 9
        /// Nested flags whose types are the `InterfaceType`s the wiphy can create.
        case supportedInterfaceTypes = 32
        /// Nested u32s (types 1, 2, ...) whose values are the `Command`s the driver implements.
        case supportedCommands = 50
        /// u32, MHz.
        case wiphyFrequency = 38
        case frame = 51
        case duration = 87
        /// u64.
        case cookie = 88
        case frameMatch = 91
        case ack = 92
        /// Nested per `InterfaceType`: u16 `frameType` entries (frame control values) the
        /// interface may send with `Command.frame`.
        case transmitFrameTypes = 99
        /// The same for the frames `Command.registerFrame` may ask for.
        case receiveFrameTypes = 100
        case frameType = 101
        /// Flag.
        case offchannelTransmitOK = 108
        /// u32, milliseconds.
        case maxRemainOnChannelDuration = 111
        /// Flag.
        case dontWaitForAck = 142
        /// u32 holding a signed dBm value.
        case receiveSignalDBm = 151
        /// u64: a NAN device is a wdev without a netdev, so it has no ifindex.
        case wdev = 153
        /// Flag: the wiphy dump may come in several messages (what every modern tool asks for).
        case splitWiphyDump = 174
        /// Flag.
        case socketOwner = 204
        case extendedFeatures = 217
        /// u8, non-zero; 1 and 255 are reserved for certification.
        case nanMasterPreference = 238
        /// u32 bitmap of `1 << Band.rawValue`.
        case bands = 239
        /// Nested `NANFunctionAttribute`.
        case nanFunction = 240
        /// Nested `NANMatchAttribute`.
        case nanMatch = 241
        /// Post-6.1: nested `NANConfigAttribute`.
        case nanConfig = 342
        /// Post-6.1: flag.
        case nanNewCluster = 343
        /// Post-6.1: nested `NANCapabilityAttribute`.
        case nanCapabilities = 344
        /// Post-6.1, wireless-next: NAN data path scheduling (351 ... 363).
        case nanChannel = 351
        case nanChannelEntry = 352
        case nanTimeSlots = 353
        case nanRxNSS = 354
        case nanAvailabilityBlob = 355
        case nanScheduleDeferred = 356
        case nanScheduleUpdateSuccess = 357
        case nanNMIMAC = 358
        case nanULW = 359
        case nanCommittedDW = 360
        case nanSequenceID = 361
        case nanMaxChannelSwitchTime = 362
        case nanPeerMaps = 363
    }

    /// `enum nl80211_iftype`.
    public enum InterfaceType: UInt32, Sendable, CaseIterable {
        case station = 2
        case accessPoint = 3
        case p2pDevice = 10
        /// The NAN device: a wdev without a netdev.
        case nan = 12
        /// Post-6.1, wireless-next: the NAN data interface (NDI), a netdev.
        case nanData = 13
        /// Post-6.1, wireless-next.
        case pd = 14
    }

    /// `enum nl80211_band`; `Attribute.bands` carries `1 << rawValue` per band.
    public enum Band: UInt32, Sendable, CaseIterable {
        case band2GHz = 0
        case band5GHz = 1
        case band60GHz = 2
        case band6GHz = 3
        case bandS1GHz = 4
        case bandLC = 5

        public var bandsBit: UInt32 { 1 << rawValue }
    }

    /// `enum nl80211_ext_feature_index`.
    public enum ExtendedFeature: UInt32, Sendable, CaseIterable {
        /// Post-6.1 (Linux 6.3/6.4): NAN pairing (PASN Authentication frames, keys on the
        /// NAN wdev).
        case secureNAN = 63
    }

    /// `enum nl80211_nan_func_attributes`, nested in `Attribute.nanFunction`.
    public enum NANFunctionAttribute: UInt16, Sendable, CaseIterable {
        /// u8, a `NANFunctionType`.
        case type = 1
        /// 6 octets.
        case serviceID = 2
        /// u8, a `NANPublishType` bitmap.
        case publishType = 3
        /// Flag.
        case publishBroadcast = 4
        /// Flag.
        case subscribeActive = 5
        /// u8.
        case followUpID = 6
        /// u8.
        case followUpRequestorID = 7
        /// MAC address.
        case followUpDestination = 8
        /// Flag.
        case closeRange = 9
        /// u32, in discovery windows.
        case ttl = 10
        /// Up to 255 octets.
        case serviceInfo = 11
        /// Nested `NANSRFAttribute`.
        case srf = 12
        /// Nested list of binary filters.
        case rxMatchFilter = 13
        /// Nested list of binary filters.
        case txMatchFilter = 14
        /// u8, returned by the kernel.
        case instanceID = 15
        /// u8, a `NANTerminationReason`.
        case terminationReason = 16
    }

    /// `enum nl80211_nan_function_type`.
    public enum NANFunctionType: UInt8, Sendable, CaseIterable {
        case publish = 0
        case subscribe = 1
        case followUp = 2
    }

    /// `enum nl80211_nan_publish_type` (a bitmap).
    public struct NANPublishType: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let solicited = NANPublishType(rawValue: 1 << 0)
        public static let unsolicited = NANPublishType(rawValue: 1 << 1)
    }

    /// `enum nl80211_nan_func_term_reason`.
    public enum NANTerminationReason: UInt8, Sendable, CaseIterable {
        case userRequest = 0
        case ttlExpired = 1
        case error = 2
    }

    /// `enum nl80211_nan_srf_attributes`, nested in `NANFunctionAttribute.srf`.
    public enum NANSRFAttribute: UInt16, Sendable, CaseIterable {
        case include = 1
        case bloomFilter = 2
        case bloomFilterIndex = 3
        case macAddresses = 4
    }

    /// `enum nl80211_nan_match_attributes`, nested in `Attribute.nanMatch`.
    public enum NANMatchAttribute: UInt16, Sendable, CaseIterable {
        case localFunction = 1
        case peerFunction = 2
    }

    /// Post-6.1: `enum nl80211_nan_conf_attributes`, nested in `Attribute.nanConfig`.
    public enum NANConfigAttribute: UInt16, Sendable, CaseIterable {
        case clusterID = 1
        case extraAttributes = 2
        case vendorElements = 3
        case bandConfigs = 4
        case scanPeriod = 5
        case scanDwellTime = 6
        case discoveryBeaconInterval = 7
        case notifyDW = 8
    }

    /// Post-6.1: `NL80211_NAN_BAND_CONF_*`, nested in `NANConfigAttribute.bandConfigs`.
    public enum NANBandConfigAttribute: UInt16, Sendable, CaseIterable {
        case band = 1
        case frequency = 2
        case rssiClose = 3
        case rssiMiddle = 4
        case wakeDW = 5
        case disableScan = 6
    }

    /// Post-6.1: `enum nl80211_nan_capabilities`, nested in `Attribute.nanCapabilities`.
    public enum NANCapabilityAttribute: UInt16, Sendable, CaseIterable {
        case configurableSync = 1
        /// The driver synchronises only; discovery runs in userspace with `Command.frame`.
        case userspaceDiscoveryEngine = 2
        case operationMode = 3
        case numberOfAntennas = 4
        case maxChannelSwitchTime = 5
        case capabilities = 6
        case phy = 7
    }
}

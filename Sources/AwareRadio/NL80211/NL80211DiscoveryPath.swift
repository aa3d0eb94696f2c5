/// How the radio carries NAN frames on a given interface, chosen from what its wiphy reports.
///
/// The roles above the air build every SDF, NAF and PASN Authentication frame themselves; the
/// first and last paths carry those whole, the second translates them:
///
/// * `nanDevice`: a NAN device (`NL80211_IFTYPE_NAN`) whose driver only synchronises
///   (`NL80211_NAN_CAPA_USERSPACE_DE`) and lets userspace send SDFs with `NL80211_CMD_FRAME`;
///   pairing needs `NL80211_EXT_FEATURE_SECURE_NAN` for Authentication frames there. This is
///   how wpa_supplicant's synchronised NAN (2025-2026) works (platform-notes.md 1.2, 1.4).
/// * `unsynchronizedFrames`: NAN USD on the interface itself: listen with
///   `NL80211_CMD_REMAIN_ON_CHANNEL`, send with `NL80211_CMD_FRAME`, receive through
///   `NL80211_CMD_REGISTER_FRAME`, as wpa_supplicant's `nan_de.c` does on a station or P2P
///   device interface.
///
/// * `functionOffload`: a NAN device whose driver runs its own discovery engine
///   (`NL80211_CMD_START_NAN`, `ADD_NAN_FUNCTION`, `DEL_NAN_FUNCTION`, `NAN_MATCH` events,
///   Linux 4.9 on). The roles' SDFs are translated into functions at the radio's edge
///   (``NL80211OffloadFrame``), matches back into SDFs; the function attributes have no room
///   for the SDEA, DCEA or NPBA, so discovery filters on the TXT record and PIN
///   bootstrapping cannot pass (docs/guides/nl80211.md). PASN Authentication frames still go
///   through `NL80211_CMD_FRAME` when the wiphy allows them on the NAN interface type
///   (``missingForOffloadPairing(_:)``).
///
/// Preference: NAN device, then function offload, then USD.
public enum NL80211DiscoveryPath: Hashable, Sendable, CustomStringConvertible {
    case nanDevice
    case functionOffload
    case unsynchronizedFrames

    public var description: String {
        switch self {
        case .nanDevice: "NAN device with a userspace discovery engine (NL80211_CMD_FRAME on the NAN wdev)"
        case .functionOffload:
            "NAN function offload (NL80211_CMD_ADD_NAN_FUNCTION / NL80211_CMD_NAN_MATCH on the NAN wdev; "
                + "no SDEA, DCEA or NPBA)"
        case .unsynchronizedFrames: "NAN USD frames (NL80211_CMD_REMAIN_ON_CHANNEL + NL80211_CMD_FRAME)"
        }
    }

    /// The path for `interface` on `wiphy`, or `RadioError.notNANCapable` listing, in
    /// nl80211's names, every capability that is missing for each path.
    public static func select(interface: NL80211Interface, wiphy: NL80211Wiphy) throws(RadioError) -> Self {
        let nanDeviceMissing = missingForNANDevice(wiphy)
        if nanDeviceMissing.isEmpty { return .nanDevice }
        let offloadMissing = missingForOffload(wiphy)
        if offloadMissing.isEmpty { return .functionOffload }
        let framesMissing = missingForFrames(
            interfaceType: interface.interfaceType,
            typeName: interface.typeName,
            wiphy
        )
        if framesMissing.isEmpty { return .unsynchronizedFrames }
        var missing = nanDeviceMissing.map { "for a NAN device: \($0)" }
        missing += offloadMissing.map { "for NAN function offload: \($0)" }
        missing += framesMissing.map { "for NAN USD frames: \($0)" }
        throw RadioError.notNANCapable(
            interface: interface.name ?? interface.device?.description ?? "?",
            missing: missing
        )
    }

    static func missingForNANDevice(_ wiphy: NL80211Wiphy) -> [String] {
        let nan = NL80211Constants.InterfaceType.nan.rawValue
        var missing: [String] = []
        if !wiphy.supports(.nan) { missing.append("NL80211_IFTYPE_NAN in NL80211_ATTR_SUPPORTED_IFTYPES") }
        if !wiphy.userspaceDiscoveryEngine {
            missing.append("NL80211_NAN_CAPA_USERSPACE_DE in NL80211_ATTR_NAN_CAPABILITIES")
        }
        if !wiphy.has(.secureNAN) { missing.append("NL80211_EXT_FEATURE_SECURE_NAN in NL80211_ATTR_EXT_FEATURES") }
        missing += missingFrameTypes(interfaceType: nan, typeName: "nan", wiphy)
        return missing
    }

    /// A driver discovery engine: the NAN interface type, the commands a function's life needs
    /// (`START_NAN`, `ADD_NAN_FUNCTION`, `DEL_NAN_FUNCTION`) in `NL80211_ATTR_SUPPORTED_COMMANDS`
    /// (that a 6.1 kernel lists them there for such a driver is unverified, docs/guides/nl80211.md), and
    /// no `USERSPACE_DE`: with it, "ADD/DEL_NAN_FUNCTION and NAN_MATCH must not be used"
    /// (platform-notes.md 1.2).
    static func missingForOffload(_ wiphy: NL80211Wiphy) -> [String] {
        var missing: [String] = []
        if !wiphy.supports(.nan) { missing.append("NL80211_IFTYPE_NAN in NL80211_ATTR_SUPPORTED_IFTYPES") }
        for command in [NL80211Constants.Command.startNAN, .addNANFunction, .deleteNANFunction]
        where !wiphy.supports(command) {
            missing.append("\(Self.name(command)) in NL80211_ATTR_SUPPORTED_COMMANDS")
        }
        if wiphy.userspaceDiscoveryEngine {
            missing.append(
                "no NL80211_NAN_CAPA_USERSPACE_DE (the driver asks for a userspace discovery engine, which rules "
                    + "out ADD_NAN_FUNCTION)"
            )
        }
        return missing
    }

    /// What pairing needs on the offload path: PASN Authentication frames sent with
    /// `NL80211_CMD_FRAME` and received through `NL80211_CMD_REGISTER_FRAME` on the NAN
    /// device, so Authentication (0x00b0) in the TX and RX frame types of `NL80211_IFTYPE_NAN`
    /// (`nl80211_send_mgmt_stypes`), and the FRAME and REGISTER_FRAME commands. Empty when
    /// pairing can run.
    public static func missingForOffloadPairing(_ wiphy: NL80211Wiphy) -> [String] {
        let nan = NL80211Constants.InterfaceType.nan.rawValue
        let authentication = NL80211FrameRegistration.authenticationFrameType
        var missing: [String] = []
        if !wiphy.supports(.frame) { missing.append("NL80211_CMD_FRAME in NL80211_ATTR_SUPPORTED_COMMANDS") }
        if !wiphy.supports(.registerFrame) {
            missing.append("NL80211_CMD_REGISTER_FRAME in NL80211_ATTR_SUPPORTED_COMMANDS")
        }
        if wiphy.transmitFrameTypes[nan]?.contains(authentication) != true {
            missing.append("Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan")
        }
        if wiphy.receiveFrameTypes[nan]?.contains(authentication) != true {
            missing.append("Authentication (0x00b0) in NL80211_ATTR_RX_FRAME_TYPES for nan")
        }
        return missing
    }

    private static func name(_ command: NL80211Constants.Command) -> String {
        switch command {
        case .startNAN: "NL80211_CMD_START_NAN"
        case .addNANFunction: "NL80211_CMD_ADD_NAN_FUNCTION"
        case .deleteNANFunction: "NL80211_CMD_DEL_NAN_FUNCTION"
        default: "NL80211 command \(command.rawValue)"
        }
    }

    static func missingForFrames(interfaceType: UInt32, typeName: String, _ wiphy: NL80211Wiphy) -> [String] {
        var missing: [String] = []
        if !wiphy.supports(.remainOnChannel) {
            missing.append("NL80211_CMD_REMAIN_ON_CHANNEL in NL80211_ATTR_SUPPORTED_COMMANDS")
        }
        if !wiphy.supports(.frame) { missing.append("NL80211_CMD_FRAME in NL80211_ATTR_SUPPORTED_COMMANDS") }
        missing += missingFrameTypes(interfaceType: interfaceType, typeName: typeName, wiphy)
        return missing
    }

    /// Action frames carry SDFs and NAFs, Authentication frames carry PASN; both directions.
    private static func missingFrameTypes(interfaceType: UInt32, typeName: String, _ wiphy: NL80211Wiphy) -> [String] {
        var missing: [String] = []
        let needed: [(UInt16, String)] = [
            (NL80211FrameRegistration.actionFrameType, "Action (0x00d0)"),
            (NL80211FrameRegistration.authenticationFrameType, "Authentication (0x00b0)"),
        ]
        for (frameType, name) in needed {
            if wiphy.transmitFrameTypes[interfaceType]?.contains(frameType) != true {
                missing.append("\(name) in NL80211_ATTR_TX_FRAME_TYPES for \(typeName)")
            }
            if wiphy.receiveFrameTypes[interfaceType]?.contains(frameType) != true {
                missing.append("\(name) in NL80211_ATTR_RX_FRAME_TYPES for \(typeName)")
            }
        }
        return missing
    }
}

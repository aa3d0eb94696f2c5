/// How the radio carries NAN frames on a given interface, chosen from what its wiphy reports.
///
/// The roles above the air build every SDF, NAF and PASN Authentication frame themselves, so
/// the radio needs a path that transmits and receives whole frames:
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
/// A driver that offers only its own discovery engine (`ADD_NAN_FUNCTION` / `NAN_MATCH`)
/// cannot carry what the roles send: the function attributes hold a service ID, service
/// specific info and filters, and nothing for the SDEA, DCEA, NPBA or PASN frames that
/// AccessorySetupKit-style discovery and pairing need. Such a wiphy is refused with that
/// reason rather than run with half the protocol (docs/nl80211.md).
public enum NL80211DiscoveryPath: Hashable, Sendable, CustomStringConvertible {
    case nanDevice
    case unsynchronizedFrames

    public var description: String {
        switch self {
        case .nanDevice: "NAN device with a userspace discovery engine (NL80211_CMD_FRAME on the NAN wdev)"
        case .unsynchronizedFrames: "NAN USD frames (NL80211_CMD_REMAIN_ON_CHANNEL + NL80211_CMD_FRAME)"
        }
    }

    /// The path for `interface` on `wiphy`, or `RadioError.notNANCapable` listing, in
    /// nl80211's names, every capability that is missing for each path.
    public static func select(interface: NL80211Interface, wiphy: NL80211Wiphy) throws(RadioError) -> Self {
        let nanDeviceMissing = missingForNANDevice(wiphy)
        if nanDeviceMissing.isEmpty { return .nanDevice }
        let framesMissing = missingForFrames(
            interfaceType: interface.interfaceType,
            typeName: interface.typeName,
            wiphy
        )
        if framesMissing.isEmpty { return .unsynchronizedFrames }
        var missing = nanDeviceMissing.map { "for a NAN device: \($0)" }
        missing += framesMissing.map { "for NAN USD frames: \($0)" }
        if wiphy.supports(.nan) && !wiphy.userspaceDiscoveryEngine {
            missing.append(
                "the driver offers only its own discovery engine (ADD_NAN_FUNCTION / NAN_MATCH), which cannot carry "
                    + "the SDEA, NPBA and PASN frames pairing needs"
            )
        }
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

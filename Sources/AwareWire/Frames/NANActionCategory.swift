/// The Action frame Category that carries NAN SDFs and NAFs (nan-wire-reference.md 1.1):
/// 4 = Public, 9 = Protected Dual of Public Action (hostap switches unicast frames to a
/// paired peer to 9, 3.8).
public enum NANActionCategory: UInt8, Hashable, Sendable {
    case publicAction = 4
    case protectedDualOfPublicAction = 9

    public var name: String {
        switch self {
        case .publicAction: "Public"
        case .protectedDualOfPublicAction: "Protected Dual of Public Action"
        }
    }

    var decoded: DecodedValue { .named(UInt64(rawValue), name) }

    /// The Public Action field value "Vendor Specific" (`WLAN_PA_VENDOR_SPECIFIC`).
    static let vendorSpecificAction: UInt8 = 9
    /// OUI 50-6F-9A (Wi-Fi Alliance).
    static let wfaOUI: [UInt8] = [0x50, 0x6F, 0x9A]
}

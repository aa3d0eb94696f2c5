/// NAN pairing bootstrapping methods, with their bits in the bootstrapping-method bitmap
/// (apple-peer-model.md 3, after Wi-Fi Aware 4.0 9.5.21.7).
public enum BootstrappingMethod: String, Codable, Hashable, Sendable, CaseIterable {
    case opportunistic
    case pinDisplay
    case passphraseDisplay
    case qrDisplay
    case nfcTag
    case pinKeypad
    case passphraseKeypad
    case qrScan
    case nfcReader

    public var bit: UInt16 {
        switch self {
        case .opportunistic: return 0x0001
        case .pinDisplay: return 0x0002
        case .passphraseDisplay: return 0x0004
        case .qrDisplay: return 0x0008
        case .nfcTag: return 0x0010
        case .pinKeypad: return 0x0020
        case .passphraseKeypad: return 0x0040
        case .qrScan: return 0x0080
        case .nfcReader: return 0x0100
        }
    }
}

/// The AKM of a PASN exchange (nan-wire-reference.md 3.4): SAE (00-0F-AC:8) for PIN or
/// passphrase pairing, PASN (00-0F-AC:21) for opportunistic pairing. Verification reuses the
/// AKM stored with the NPK.
public enum PASNAKM: Hashable, Sendable, CaseIterable {
    case sae
    case pasn

    /// The RSN AKM suite type under OUI 00-0F-AC.
    public var suiteType: UInt8 {
        switch self {
        case .sae: return 8
        case .pasn: return 21
        }
    }
}

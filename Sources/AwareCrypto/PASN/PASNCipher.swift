/// The pairwise cipher negotiated in the PASN RSNE (nan-wire-reference.md 3.4: CCMP-128 with
/// NCS-PK-PASN-128, GCMP-256 with NCS-PK-PASN-256).
public enum PASNCipher: Hashable, Sendable, CaseIterable {
    case ccmp128
    case gcmp256

    /// TK length in octets (the cipher's key length).
    public var temporalKeyLength: Int {
        switch self {
        case .ccmp128: return 16
        case .gcmp256: return 32
        }
    }
}

/// The NAN cipher suites used with paired peers (nan-wire-reference.md 2.13, CSIDs 7 and 8).
public enum PairingCipherSuite: String, Codable, Hashable, Sendable, CaseIterable {
    case pasn128 = "NCS-PK-PASN-128"
    case pasn256 = "NCS-PK-PASN-256"

    /// The Cipher Suite ID in the CSIA.
    public var csid: UInt8 {
        switch self {
        case .pasn128: return 7
        case .pasn256: return 8
        }
    }
}

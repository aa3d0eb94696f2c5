/// The NAN cipher suites that have a key schedule here (nan-wire-reference.md 2.13), with the
/// hash and key lengths each one implies.
public enum NANSecurityCipherSuite: UInt8, Hashable, Sendable, CaseIterable {
    case ncsSK128 = 1
    case ncsSK256 = 2
    case ncsPKPASN128 = 7
    case ncsPKPASN256 = 8

    /// Throws `.unsupportedCipherSuite` for a CSID without a key schedule (0, 3-6, 9+).
    public init(csid: UInt8) throws(KeyDerivationError) {
        guard let suite = NANSecurityCipherSuite(rawValue: csid) else { throw .unsupportedCipherSuite(csid: csid) }
        self = suite
    }

    public var csid: UInt8 { rawValue }

    /// SHA-256 for the 128-bit suites, SHA-384 for the 256-bit ones (4.2, 3.5).
    public var hash: KDFHash {
        switch self {
        case .ncsSK128, .ncsPKPASN128: return .sha256
        case .ncsSK256, .ncsPKPASN256: return .sha384
        }
    }

    /// True for the suites a PASN pairing negotiates (7, 8).
    public var isPairingSuite: Bool { self == .ncsPKPASN128 || self == .ncsPKPASN256 }

    /// Key Descriptor MIC length: 16 or 24 octets (2.15).
    public var micLength: Int { hash == .sha256 ? 16 : 24 }
}

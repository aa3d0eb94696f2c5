import CMbedCrypto

/// The elliptic curve groups SAE and PASN use, named by their IANA / IEEE 802.11 finite
/// cyclic group number (IEEE 802.11-2020 12.4.4.2, "Elliptic curve cryptography groups").
///
/// Also the thread-safe, value-semantics way in: see `EllipticCurve+Arithmetic.swift`. There is
/// deliberately no `P256` namespace here: swift-crypto owns that name and AwareCrypto imports
/// swift-crypto, so a second `P256` would make every mention ambiguous.
public enum EllipticCurve: UInt16, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// NIST P-256 (secp256r1), group 19.
    case p256 = 19
    /// NIST P-384 (secp384r1), group 20.
    case p384 = 20

    public var groupNumber: UInt16 { rawValue }

    /// Octets of one coordinate, and of a scalar: the orders of both curves have as many
    /// octets as their primes.
    public var coordinateLength: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        }
    }

    public var description: String {
        switch self {
        case .p256: return "P-256 (group 19)"
        case .p384: return "P-384 (group 20)"
        }
    }

    var mbedTLSGroupID: mbedtls_ecp_group_id {
        switch self {
        case .p256: return MBEDTLS_ECP_DP_SECP256R1
        case .p384: return MBEDTLS_ECP_DP_SECP384R1
        }
    }
}

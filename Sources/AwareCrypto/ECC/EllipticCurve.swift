import CMbedCrypto

/// The elliptic curve groups SAE and PASN use, named by their IANA / IEEE 802.11 finite
/// cyclic group number (IEEE 802.11-2020 12.4.4.2, "Elliptic curve cryptography groups").
///
/// Also the thread-safe, value-semantics way in: see its byte-level extension below. There is
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

/// Byte-in, byte-out curve arithmetic: the edge other modules use.
///
/// Each call loads its own group and points and releases them before returning, so these
/// functions share no mutable state and are safe from any task; the mbedTLS objects never
/// escape (see `EllipticCurveGroup` for why a group may not be shared). Points are x || y
/// (IEEE 802.11-2020 12.4.7.2.4 element encoding), scalars are big-endian and exactly
/// `coordinateLength` octets.
extension EllipticCurve {
    /// Throws unless `point` (x || y) is a point of this curve.
    public func validate(point: [UInt8]) throws(CryptoError) {
        let group = try EllipticCurveGroup(self)
        _ = try EllipticCurvePoint(group: group, coordinates: point)
    }

    /// `scalar` · G as x || y.
    public func multiplyGenerator(scalar: [UInt8]) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(self)
        return try group.generator.multiplied(by: makeScalar(scalar)).coordinates()
    }

    /// `scalar` · `point` as x || y; `point` is validated first.
    public func multiply(scalar: [UInt8], point: [UInt8]) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(self)
        let base = try EllipticCurvePoint(group: group, coordinates: point)
        return try base.multiplied(by: makeScalar(scalar)).coordinates()
    }

    /// `first` + `second` as x || y. Throws `pointAtInfinity` when `second` = −`first`, the
    /// one sum x || y cannot encode.
    public func add(_ first: [UInt8], _ second: [UInt8]) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(self)
        let sum = try EllipticCurvePoint(group: group, coordinates: first)
            .adding(EllipticCurvePoint(group: group, coordinates: second))
        guard !sum.isInfinity else { throw CryptoError.pointAtInfinity(operation: "point addition") }
        return try sum.coordinates()
    }

    /// −`point` as x || y.
    public func negate(_ point: [UInt8]) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(self)
        return try EllipticCurvePoint(group: group, coordinates: point).negated().coordinates()
    }

    /// The x || y of a SEC 1 point (0x02/0x03 || x compressed or 0x04 || x || y).
    public func decode(sec1: [UInt8]) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(self)
        return try EllipticCurvePoint(group: group, sec1: sec1).coordinates()
    }

    private func makeScalar(_ bytes: [UInt8]) throws(CryptoError) -> BigNumber {
        guard bytes.count == coordinateLength else {
            throw CryptoError.invalidLength(field: "scalar", expected: coordinateLength, actual: bytes.count)
        }
        return try BigNumber(bytes: bytes)
    }
}

/// The parameters of a short Weierstrass curve y² = x³ + ax + b over GF(p) with a generator
/// of prime order r, loaded by mbedTLS (`mbedtls_ecp_group`).
///
/// Not `Sendable`, and not to be shared between threads: `mbedtls_ecp_mul` caches a table of
/// multiples of the generator inside the group ("It is not thread-safe to use same group in
/// multiple threads", mbedtls/ecp.h). Each task makes its own group, or uses the byte-level
/// functions on `EllipticCurve`, which do.
public final class EllipticCurveGroup {
    public let curve: EllipticCurve
    let storage: UnsafeMutablePointer<mbedtls_ecp_group>

    /// The field prime p.
    public let prime: BigNumber
    /// The order r of the generator (mbedTLS calls it N).
    public let order: BigNumber
    /// The coefficient a. mbedTLS leaves `A.p == NULL` for the NIST curves to mean a = −3
    /// (platform-notes.md 3.2), so this is p − 3 for both groups here.
    public let a: BigNumber
    /// The coefficient b.
    public let b: BigNumber

    public init(_ curve: EllipticCurve) throws(CryptoError) {
        self.curve = curve
        storage = .allocate(capacity: 1)
        mbedtls_ecp_group_init(storage)
        try MbedTLSStatus.check(mbedtls_ecp_group_load(storage, curve.mbedTLSGroupID), "mbedtls_ecp_group_load")
        let group = storage
        prime = try BigNumber(copying: group.pointer(to: \.P)!)
        order = try BigNumber(copying: group.pointer(to: \.N)!)
        b = try BigNumber(copying: group.pointer(to: \.B)!)
        if group.pointee.A.p == nil {
            a = try prime.subtracting(BigNumber(3))
        } else {
            a = try BigNumber(copying: group.pointer(to: \.A)!)
        }
    }

    deinit {
        mbedtls_ecp_group_free(storage)
        storage.deallocate()
    }

    public var coordinateLength: Int { curve.coordinateLength }

    /// The generator G (a fresh copy each time).
    public var generator: EllipticCurvePoint {
        get throws(CryptoError) {
            let point = EllipticCurvePoint(infinityOn: self)
            let code = withExtendedLifetime((self, point)) {
                mbedtls_ecp_copy(point.storage, storage.pointer(to: \.G)!)
            }
            try MbedTLSStatus.check(code, "mbedtls_ecp_copy")
            return point
        }
    }
}

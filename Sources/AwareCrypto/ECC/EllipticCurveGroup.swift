import CMbedCrypto

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

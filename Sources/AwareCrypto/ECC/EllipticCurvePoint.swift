import CMbedCrypto

/// A point of an `EllipticCurveGroup`, or the point at infinity, held by mbedTLS
/// (`mbedtls_ecp_point`, Jacobian coordinates normalised to Z = 1 or Z = 0 for infinity).
///
/// Every point made from outside bytes has been checked to lie on the curve
/// (`mbedtls_ecp_check_pubkey`, after our own x, y < p check so the error says which), so an
/// invalid-curve point never reaches the arithmetic. Operations return new points.
///
/// Not `Sendable`: it refers to its (non-thread-safe) group. Pass `coordinates()` bytes
/// between tasks.
public final class EllipticCurvePoint {
    public let group: EllipticCurveGroup
    let storage: UnsafeMutablePointer<mbedtls_ecp_point>

    /// The point at infinity (mbedTLS's "zero" point) of `group`.
    public init(infinityOn group: EllipticCurveGroup) {
        self.group = group
        storage = .allocate(capacity: 1)
        mbedtls_ecp_point_init(storage)
        let code = mbedtls_ecp_set_zero(storage)
        precondition(code == 0, "mbedtls_ecp_set_zero: \(MbedTLSStatus.message(for: code))")
    }

    deinit {
        mbedtls_ecp_point_free(storage)
        storage.deallocate()
    }

    /// The point with affine coordinates (`x`, `y`), validated.
    public convenience init(group: EllipticCurveGroup, x: BigNumber, y: BigNumber) throws(CryptoError) {
        self.init(infinityOn: group)
        try Self.requireFieldElement(x, "x", group)
        try Self.requireFieldElement(y, "y", group)
        let code = withExtendedLifetime((x, y)) { () -> Int32 in
            let copyX = mbedtls_mpi_copy(storage.pointer(to: \.X)!, x.storage)
            guard copyX == 0 else { return copyX }
            let copyY = mbedtls_mpi_copy(storage.pointer(to: \.Y)!, y.storage)
            guard copyY == 0 else { return copyY }
            return mbedtls_mpi_lset(storage.pointer(to: \.Z)!, 1)
        }
        try MbedTLSStatus.check(code, "mbedtls_mpi_copy")
        try validate()
    }

    /// The point encoded as x || y, each coordinate big-endian and as long as the field
    /// (the SAE / PASN element encoding, IEEE 802.11-2020 12.4.7.2.4).
    public convenience init(group: EllipticCurveGroup, coordinates: some Collection<UInt8>) throws(CryptoError) {
        let octets = Array(coordinates)
        let length = group.coordinateLength
        guard octets.count == 2 * length else {
            throw CryptoError.invalidLength(field: "point x || y", expected: 2 * length, actual: octets.count)
        }
        try self.init(
            group: group,
            x: BigNumber(bytes: octets[0..<length]),
            y: BigNumber(bytes: octets[length...])
        )
    }

    /// The point in SEC 1 2.3.3 form: uncompressed 0x04 || x || y, or compressed
    /// 0x02 || x (even y) / 0x03 || x (odd y). The point at infinity (0x00) is refused.
    public convenience init(group: EllipticCurveGroup, sec1: some Collection<UInt8>) throws(CryptoError) {
        let octets = Array(sec1)
        let length = group.coordinateLength
        guard let prefix = octets.first else {
            throw CryptoError.invalidLength(field: "SEC 1 point", expected: 1 + length, actual: 0)
        }
        switch prefix {
        case 0x04:
            guard octets.count == 1 + 2 * length else {
                throw CryptoError.invalidLength(
                    field: "uncompressed point 0x04 || x || y",
                    expected: 1 + 2 * length,
                    actual: octets.count
                )
            }
            try self.init(group: group, coordinates: octets.dropFirst())
        case 0x02, 0x03:
            guard octets.count == 1 + length else {
                throw CryptoError.invalidLength(
                    field: "compressed point 0x02/0x03 || x",
                    expected: 1 + length,
                    actual: octets.count
                )
            }
            let x = try BigNumber(bytes: octets.dropFirst())
            let y = try Self.decompressY(x: x, odd: prefix == 0x03, group: group)
            try self.init(group: group, x: x, y: y)
        default:
            throw CryptoError.invalidEncoding(
                field: "SEC 1 point",
                reason: "prefix 0x\(String(prefix, radix: 16)) is not 0x02, 0x03 or 0x04"
            )
        }
    }

    public var curve: EllipticCurve { group.curve }

    public var isInfinity: Bool { withExtendedLifetime(self) { mbedtls_ecp_is_zero(storage) == 1 } }

    public func x() throws(CryptoError) -> BigNumber {
        try requireFinite("x coordinate")
        return try withExtendedLifetime(self) { () throws(CryptoError) -> BigNumber in
            try BigNumber(copying: storage.pointer(to: \.X)!)
        }
    }

    public func y() throws(CryptoError) -> BigNumber {
        try requireFinite("y coordinate")
        return try withExtendedLifetime(self) { () throws(CryptoError) -> BigNumber in
            try BigNumber(copying: storage.pointer(to: \.Y)!)
        }
    }

    /// x || y, each coordinate as long as the field.
    public func coordinates() throws(CryptoError) -> [UInt8] {
        let length = group.coordinateLength
        return try x().bytes(length: length) + y().bytes(length: length)
    }

    /// 0x04 || x || y (SEC 1 2.3.3).
    public func uncompressed() throws(CryptoError) -> [UInt8] {
        try [0x04] + coordinates()
    }

    /// 0x02 || x for even y, 0x03 || x for odd y (SEC 1 2.3.3).
    public func compressed() throws(CryptoError) -> [UInt8] {
        let prefix: UInt8 = try y().isOdd ? 0x03 : 0x02
        return try [prefix] + x().bytes(length: group.coordinateLength)
    }

    /// `scalar` · `self`. The scalar must be in [1, r − 1]: mbedTLS refuses anything else
    /// (`mbedtls_ecp_mul` checks it like a private key), and so do SAE and PASN.
    /// The blinding random source is deterministic; `BlindingRandom` explains why that is
    /// acceptable.
    public func multiplied(by scalar: BigNumber) throws(CryptoError) -> EllipticCurvePoint {
        guard !scalar.isNegative, !scalar.isZero, scalar < group.order else {
            throw CryptoError.scalarOutOfRange(field: "scalar", reason: "must be in [1, r - 1] for \(curve)")
        }
        try requireFinite("scalar multiplication")
        let blinding = try BlindingRandom()
        let result = EllipticCurvePoint(infinityOn: group)
        let code = withExtendedLifetime((self, scalar, result, blinding)) {
            mbedtls_ecp_mul(
                group.storage,
                result.storage,
                scalar.storage,
                storage,
                mbedtls_hmac_drbg_random,
                blinding.storage
            )
        }
        try MbedTLSStatus.check(code, "mbedtls_ecp_mul")
        return result
    }

    /// `self` + `other`, as `mbedtls_ecp_muladd` computes 1·P + 1·Q.
    ///
    /// Edge cases, and why they are handled here or left to mbedTLS:
    /// - infinity + Q = Q and P + infinity = P are answered here: muladd validates both
    ///   inputs with `mbedtls_ecp_check_pubkey`, which rejects the point at infinity.
    /// - P + P: muladd's mixed addition finds equal X and Y and switches to doubling, so the
    ///   result is 2P (tested against `multiplied(by: 2)`).
    /// - P + (−P): muladd returns success with the point at infinity as the result; it is
    ///   returned as such (`isInfinity`), and byte encoders then throw `pointAtInfinity`.
    public func adding(_ other: EllipticCurvePoint) throws(CryptoError) -> EllipticCurvePoint {
        guard other.curve == curve else { throw CryptoError.curveMismatch(expected: curve, actual: other.curve) }
        if isInfinity { return try other.copy() }
        if other.isInfinity { return try copy() }
        let one = BigNumber(1)
        let result = EllipticCurvePoint(infinityOn: group)
        let code = withExtendedLifetime((self, other, one, result)) {
            mbedtls_ecp_muladd(group.storage, result.storage, one.storage, storage, one.storage, other.storage)
        }
        try MbedTLSStatus.check(code, "mbedtls_ecp_muladd")
        return result
    }

    /// −P = (x, p − y); the negation of infinity is infinity (the SAE "element inverse",
    /// platform-notes.md 3.2).
    public func negated() throws(CryptoError) -> EllipticCurvePoint {
        if isInfinity { return EllipticCurvePoint(infinityOn: group) }
        let y = try y()
        let negatedY = y.isZero ? y : try group.prime.subtracting(y)
        return try EllipticCurvePoint(group: group, x: x(), y: negatedY)
    }

    func copy() throws(CryptoError) -> EllipticCurvePoint {
        let result = EllipticCurvePoint(infinityOn: group)
        let code = withExtendedLifetime((self, result)) { mbedtls_ecp_copy(result.storage, storage) }
        try MbedTLSStatus.check(code, "mbedtls_ecp_copy")
        return result
    }

    private func requireFinite(_ operation: String) throws(CryptoError) {
        if isInfinity { throw CryptoError.pointAtInfinity(operation: operation) }
    }

    private func validate() throws(CryptoError) {
        let code = withExtendedLifetime(self) { mbedtls_ecp_check_pubkey(group.storage, storage) }
        if code == MBEDTLS_ERR_ECP_INVALID_KEY { throw CryptoError.pointNotOnCurve(curve: curve) }
        try MbedTLSStatus.check(code, "mbedtls_ecp_check_pubkey")
    }

    private static func requireFieldElement(
        _ value: BigNumber,
        _ field: String,
        _ group: EllipticCurveGroup
    ) throws(CryptoError) {
        guard !value.isNegative, value < group.prime else {
            throw CryptoError.coordinateOutOfRange(field: field, curve: group.curve)
        }
    }

    /// SEC 1 2.3.4 step 2.4: y = sqrt(x³ + ax + b) mod p, computed as (x³ + ax + b)^((p+1)/4)
    /// because p ≡ 3 (mod 4) for both P-256 and P-384; then pick the root whose parity is
    /// `odd`. If the square of the candidate is not x³ + ax + b there is no root: x is not
    /// the abscissa of any point.
    private static func decompressY(x: BigNumber, odd: Bool, group: EllipticCurveGroup) throws(CryptoError) -> BigNumber
    {
        try requireFieldElement(x, "x", group)
        let p = group.prime
        let xCubed = try x.multiplied(by: x).multiplied(by: x)
        let rightSide = try xCubed.adding(group.a.multiplied(by: x)).adding(group.b).modulo(p)
        let exponent = try p.adding(BigNumber(1)).shiftedRight(by: 2)
        let root = try rightSide.power(exponent, modulo: p)
        guard try root.multiplied(by: root).modulo(p) == rightSide else {
            throw CryptoError.pointNotOnCurve(curve: group.curve)
        }
        if root.isOdd == odd { return root }
        guard !root.isZero else { throw CryptoError.pointNotOnCurve(curve: group.curve) }
        return try p.subtracting(root)
    }
}

/// The random source `mbedtls_ecp_mul` wants for blinding: HMAC_DRBG (SHA-256) seeded from a
/// fixed string, created fresh for every multiplication.
///
/// Why a fixed seed is acceptable: mbedTLS uses this randomness only to randomise the
/// projective representation of intermediate points (a side-channel countermeasure); the
/// affine result is the same for any blinding values, so correctness does not depend on it.
/// What is given up is that countermeasure against an observer who can time or probe this
/// process, which an emulator running test keys does not need (mbedTLS's own `f_rng == NULL`
/// fallback is likewise deterministic, seeded from the scalar). What is gained: AwareCrypto
/// draws no ambient randomness, so runs replay bit for bit from a seed (docs/reference/architecture.md, "The sans-I/O core").
/// Without `f_entropy` HMAC_DRBG never reseeds, so it cannot fail mid-run.
final class BlindingRandom {
    private static let personalization = Array("AwareBench EC blinding, HMAC_DRBG-SHA-256".utf8)
    let storage: UnsafeMutablePointer<mbedtls_hmac_drbg_context>

    init() throws(CryptoError) {
        storage = .allocate(capacity: 1)
        mbedtls_hmac_drbg_init(storage)
        let seed = Self.personalization
        let code = seed.withUnsafeBufferPointer { buffer in
            mbedtls_hmac_drbg_seed_buf(
                storage,
                mbedtls_md_info_from_type(MBEDTLS_MD_SHA256),
                buffer.baseAddress,
                buffer.count
            )
        }
        try MbedTLSStatus.check(code, "mbedtls_hmac_drbg_seed_buf")
    }

    deinit {
        mbedtls_hmac_drbg_free(storage)
        storage.deallocate()
    }
}

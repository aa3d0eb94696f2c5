import Crypto

/// SAE hash-to-element from PT to the per-pair password element PWE (IEEE 802.11-2020
/// 12.4.5.2, "PWE derivation from PT"):
///
///     val = H(0ⁿ, max(addr1, addr2) || min(addr1, addr2)),  n = the hash length
///     val = (val mod (r − 1)) + 1,  PWE = val · PT
///
/// H is HKDF-Extract with the group's hash; max/min compare the 6-octet addresses as
/// big-endian numbers. For NAN pairing the addresses are the two NMIs
/// (nan-wire-reference.md 3.4).
public enum SAE {
    /// The reduced `val` (as long as a scalar), for comparing with a debug log.
    public static func pweScalar(
        group curve: EllipticCurve,
        address1: [UInt8],
        address2: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(curve)
        return try scalar(group: group, address1: address1, address2: address2).bytes(length: curve.coordinateLength)
    }

    /// PWE as x || y. `pt` (x || y) is validated first.
    public static func pwe(
        pt: [UInt8],
        group curve: EllipticCurve,
        address1: [UInt8],
        address2: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let group = try EllipticCurveGroup(curve)
        let element = try EllipticCurvePoint(group: group, coordinates: pt)
        let value = try scalar(group: group, address1: address1, address2: address2)
        return try element.multiplied(by: value).coordinates()
    }

    private static func scalar(
        group: EllipticCurveGroup,
        address1: [UInt8],
        address2: [UInt8]
    ) throws(CryptoError) -> BigNumber {
        for address in [address1, address2] where address.count != 6 {
            throw CryptoError.invalidLength(field: "MAC address", expected: 6, actual: address.count)
        }
        let (high, low) =
            address1.lexicographicallyPrecedes(address2) ? (address2, address1) : (address1, address2)
        let hash = SAEHash(group.curve)
        let digest = hash.extract(salt: [UInt8](repeating: 0, count: hash.length), inputKeyMaterial: high + low)
        let orderMinusOne = try group.order.subtracting(BigNumber(1))
        return try BigNumber(bytes: digest).modulo(orderMinusOne).adding(BigNumber(1))
    }
}

/// The password element PT of SAE hash-to-element (IEEE 802.11-2020 12.4.4.2.3), with the
/// intermediate values a developer needs to compare against a capture's debug log.
///
///     pwd-seed  = HKDF-Extract(SSID, password [|| password identifier])
///     pwd-value = HKDF-Expand(pwd-seed, "SAE Hash to Element u1 P1" / "... u2 P2", len)
///     u1, u2    = pwd-value mod p,  P1 = SSWU(u1), P2 = SSWU(u2),  PT = P1 + P2
///
/// with len = olen(p) + ⌈olen(p) / 2⌉ (48 octets for P-256, 72 for P-384), so that the
/// reduction mod p is close to uniform. For NAN pairing the SSID is the ASCII text
/// "516F9A010000" and there is no identifier (nan-wire-reference.md 3.4).
public struct SAEPasswordElement: Hashable, Sendable {
    public let curve: EllipticCurve
    public let pwdSeed: [UInt8]
    public let pwdValue1: [UInt8]
    public let pwdValue2: [UInt8]
    /// u1 and u2, each as long as a coordinate.
    public let u1: [UInt8]
    public let u2: [UInt8]
    /// P1 and P2 as x || y.
    public let p1: [UInt8]
    public let p2: [UInt8]
    /// PT as x || y.
    public let pt: [UInt8]

    /// The NAN pairing "SSID" (nan-wire-reference.md 3.4).
    public static let nanPairingSSID = Array("516F9A010000".utf8)

    public static func derive(
        group curve: EllipticCurve,
        password: [UInt8],
        ssid: [UInt8],
        identifier: [UInt8]? = nil
    ) throws(CryptoError) -> SAEPasswordElement {
        let hash = SAEHash(curve)
        let group = try EllipticCurveGroup(curve)
        let length = curve.coordinateLength
        let seed = hash.extract(salt: ssid, inputKeyMaterial: password + (identifier ?? []))
        let valueLength = length + (length + 1) / 2
        let value1 = hash.expand(
            pseudoRandomKey: seed,
            info: Array("SAE Hash to Element u1 P1".utf8),
            length: valueLength
        )
        let value2 = hash.expand(
            pseudoRandomKey: seed,
            info: Array("SAE Hash to Element u2 P2".utf8),
            length: valueLength
        )
        let u1 = try BigNumber(bytes: value1).modulo(group.prime)
        let u2 = try BigNumber(bytes: value2).modulo(group.prime)
        let point1 = try SimplifiedSWU.map(u1, group: group)
        let point2 = try SimplifiedSWU.map(u2, group: group)
        let sum = try point1.adding(point2)
        guard !sum.isInfinity else { throw CryptoError.pointAtInfinity(operation: "PT = P1 + P2") }
        return try SAEPasswordElement(
            curve: curve,
            pwdSeed: seed,
            pwdValue1: value1,
            pwdValue2: value2,
            u1: u1.bytes(length: length),
            u2: u2.bytes(length: length),
            p1: point1.coordinates(),
            p2: point2.coordinates(),
            pt: sum.coordinates()
        )
    }
}

/// The simplified Shallue-van de Woestijne-Ulas map from a field element u to a curve point,
/// as IEEE 802.11-2020 12.4.4.2.3 writes it (RFC 9380 6.6.2 with sgn0 = parity):
///
///     m  = (z² · u⁴ + z · u²) mod p,  t = m⁻¹ (= m^(p−2))
///     x1 = b / (z · a)          if m = 0
///          (−b / a) · (1 + t)   otherwise
///     x2 = z · u² · x1
///     (x, v) = (x1, gx1) if gx1 = x1³ + a·x1 + b is a square, else (x2, gx2)
///     y  = √v, then negated unless LSB(y) = LSB(u)
///
/// Both candidates are always computed, as the standard's CSEL formulation asks; the
/// underlying mbedTLS bignum arithmetic is not itself constant-time, so this is no claim of
/// side-channel resistance.
enum SimplifiedSWU {
    /// z of IEEE 802.11-2020 Table 12-1 / RFC 9380 8.2 and 8.3: −10 for P-256, −12 for P-384.
    static func z(_ curve: EllipticCurve) -> Int {
        switch curve {
        case .p256: return -10
        case .p384: return -12
        }
    }

    static func map(_ u: BigNumber, group: EllipticCurveGroup) throws(CryptoError) -> EllipticCurvePoint {
        let p = group.prime
        let a = group.a
        let b = group.b
        let one = BigNumber(1)
        func mod(_ value: BigNumber) throws(CryptoError) -> BigNumber { try value.modulo(p) }
        func inverse(_ value: BigNumber) throws(CryptoError) -> BigNumber {
            try value.power(p.subtracting(BigNumber(2)), modulo: p)
        }
        func g(_ x: BigNumber) throws(CryptoError) -> BigNumber {
            try mod(x.multiplied(by: x).multiplied(by: x).adding(a.multiplied(by: x)).adding(b))
        }
        let z = try mod(BigNumber(z(group.curve)))
        let uSquared = try mod(u.multiplied(by: u))
        let zUSquared = try mod(z.multiplied(by: uSquared))
        let m = try mod(zUSquared.multiplied(by: zUSquared).adding(zUSquared))
        let t = try inverse(m)
        let x1WhenZero = try mod(b.multiplied(by: inverse(mod(z.multiplied(by: a)))))
        let minusBOverA = try mod(p.subtracting(b).multiplied(by: inverse(a)))
        let x1Otherwise = try mod(minusBOverA.multiplied(by: one.adding(t)))
        let x1 = m.isZero ? x1WhenZero : x1Otherwise
        let x2 = try mod(zUSquared.multiplied(by: x1))
        let gx1 = try g(x1)
        let gx2 = try g(x2)
        let legendreExponent = try p.subtracting(one).shiftedRight(by: 1)
        let gx1IsSquare = try gx1.power(legendreExponent, modulo: p) <= one
        let x = gx1IsSquare ? x1 : x2
        let v = gx1IsSquare ? gx1 : gx2
        // p ≡ 3 (mod 4) for both curves, so √v = v^((p+1)/4).
        let root = try v.power(p.adding(one).shiftedRight(by: 2), modulo: p)
        let y = root.isOdd == u.isOdd || root.isZero ? root : try p.subtracting(root)
        return try EllipticCurvePoint(group: group, x: x, y: y)
    }
}

/// The hash SAE uses with a group: SHA-256 for group 19 and SHA-384 for group 20, the
/// "hash algorithm determined by the length of the prime" of IEEE 802.11-2020 12.4.2
/// (Table 12-1) that H2E, the key derivation and the confirm all follow
/// (nan-wire-reference.md 3.4).
enum SAEHash: Sendable {
    /// The same hash for the shared IEEE 802.11 KDF.
    var kdfHash: KDFHash {
        switch self {
        case .sha256: .sha256
        case .sha384: .sha384
        }
    }

    case sha256
    case sha384

    init(_ curve: EllipticCurve) {
        switch curve {
        case .p256: self = .sha256
        case .p384: self = .sha384
        }
    }

    /// Octets of one digest: also the length of the KCK and of the confirm.
    var length: Int {
        switch self {
        case .sha256: return SHA256.byteCount
        case .sha384: return SHA384.byteCount
        }
    }

    /// HMAC-Hash(`key`, the concatenation of `parts`).
    func hmac(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        switch self {
        case .sha256: return Self.hmac(SHA256.self, key: key, parts)
        case .sha384: return Self.hmac(SHA384.self, key: key, parts)
        }
    }

    /// HKDF-Extract(salt, IKM) (RFC 5869 2.2).
    func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: return Self.extract(SHA256.self, salt: salt, inputKeyMaterial: inputKeyMaterial)
        case .sha384: return Self.extract(SHA384.self, salt: salt, inputKeyMaterial: inputKeyMaterial)
        }
    }

    /// HKDF-Expand(PRK, info, L) (RFC 5869 2.3).
    func expand(pseudoRandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        switch self {
        case .sha256: return Self.expand(SHA256.self, pseudoRandomKey, info, length)
        case .sha384: return Self.expand(SHA384.self, pseudoRandomKey, info, length)
        }
    }

    private static func hmac<H: HashFunction>(_: H.Type, key: [UInt8], _ parts: [[UInt8]]) -> [UInt8] {
        var code = HMAC<H>(key: SymmetricKey(data: key))
        for part in parts { code.update(data: part) }
        return Array(code.finalize())
    }

    private static func extract<H: HashFunction>(
        _: H.Type,
        salt: [UInt8],
        inputKeyMaterial: [UInt8]
    ) -> [UInt8] {
        Array(HKDF<H>.extract(inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: salt))
    }

    private static func expand<H: HashFunction>(
        _: H.Type,
        _ pseudoRandomKey: [UInt8],
        _ info: [UInt8],
        _ length: Int
    ) -> [UInt8] {
        HKDF<H>.expand(pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: length)
            .withUnsafeBytes { Array($0) }
    }
}

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

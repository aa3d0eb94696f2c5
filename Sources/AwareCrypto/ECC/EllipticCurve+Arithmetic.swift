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

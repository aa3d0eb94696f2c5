/// The ephemeral ECDH key pair of one PASN exchange (nan-wire-reference.md 3.4.1: "ECDH:
/// ephemeral key on the PASN group; DHss = x-coordinate of the shared point").
///
/// The public key goes on the wire as `0x02 || x` whatever the parity of y, as hostap sends it
/// (session README subtlety 3); DHss is unaffected because x(k·P) = x(k·(−P)).
public struct PASNEphemeralKeyPair: Sendable {
    public let curve: EllipticCurve
    /// The private scalar, big-endian, as long as a coordinate.
    public let privateKey: [UInt8]
    /// x || y of the public point.
    public let publicPoint: [UInt8]

    /// A key pair from a known private scalar in [1, r − 1] (known-answer tests).
    public init(curve: EllipticCurve, privateKey: [UInt8]) throws(CryptoError) {
        let group = try EllipticCurveGroup(curve)
        guard privateKey.count == curve.coordinateLength else {
            throw .invalidLength(field: "PASN private key", expected: curve.coordinateLength, actual: privateKey.count)
        }
        let scalar = try BigNumber(bytes: privateKey)
        guard scalar.compare(to: BigNumber(0)) > 0, scalar < group.order else {
            throw .scalarOutOfRange(field: "PASN private key", reason: "must be in [1, r − 1]")
        }
        self.curve = curve
        self.privateKey = privateKey
        publicPoint = try curve.multiplyGenerator(scalar: privateKey)
    }

    /// A fresh key pair with the private scalar drawn from `generator`.
    public init(curve: EllipticCurve, using generator: inout some RandomNumberGenerator) throws(CryptoError) {
        let order = try EllipticCurveGroup(curve).order
        let scalar = try BigNumber.random(from: BigNumber(1), below: order, using: &generator)
        try self.init(curve: curve, privateKey: try scalar.bytes(length: curve.coordinateLength))
    }

    /// The key as PASN Parameters carry it: `0x02 || x` (RFC 5480 compressed form, even y
    /// claimed).
    public var wireKey: [UInt8] { [0x02] + publicPoint.prefix(curve.coordinateLength) }

    /// DHss with the peer's SEC 1 key (0x02/0x03 compressed or 0x04 uncompressed). Refuses a
    /// key that is not a point of the curve, and one whose x equals ours (a reflected key).
    public func sharedSecret(peerKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        let peerPoint = try curve.decode(sec1: peerKey)
        let length = curve.coordinateLength
        guard !ConstantTime.equals(Array(peerPoint.prefix(length)), Array(publicPoint.prefix(length))) else {
            throw .invalidEncoding(field: "PASN peer key", reason: "equals our own public key")
        }
        let shared = try curve.multiply(scalar: privateKey, point: peerPoint)
        return Array(shared.prefix(length))
    }
}

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

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

/// What an SAE exchange derives (IEEE 802.11-2020 12.4.5.4; nan-wire-reference.md 3.4):
///
///     k       = F(rand · (peer-scalar · PWE + PEER-ELEMENT)),  F = the x coordinate
///     keyseed = HMAC-Hash(0ⁿ, k)            (no rejected groups: the salt is all zero)
///     KCK || PMK = KDF-Hash-Length(keyseed, "SAE KCK and PMK", (scalar + peer-scalar) mod r)
///     PMKID   = L((scalar + peer-scalar) mod r, 0, 128)
///
/// KCK is as long as the hash; the PMK is 32 octets (AKM 00-0F-AC:8, not SAE-EXT-KEY). For
/// NAN pairing the PMK is the NPK. `k` and `keyseed` are kept for debugging captures.
public struct SAEKeys: Hashable, Sendable {
    public let k: [UInt8]
    public let keyseed: [UInt8]
    public let kck: [UInt8]
    public let pmk: [UInt8]
    public let pmkid: [UInt8]

    public static let pmkLength = 32
}

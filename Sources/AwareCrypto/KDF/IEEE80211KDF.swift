/// The IEEE 802.11 key derivation function KDF-Hash-Length (IEEE Std 802.11-2020 12.7.1.6.2).
///
/// `result = HMAC(K, i || label || context || Length) || ...` for i = 1, 2, ..., with i and
/// Length (in bits) as little-endian 16-bit integers, truncated to the requested length
/// (nan-wire-reference.md 3.4.2; the same PRF as hostap's sha256_prf / sha384_prf).
public enum IEEE80211KDF {
    /// Derives `length` octets. `length` must be 1...8191 so that the bit count fits 16 bits.
    public static func derive(
        hash: KDFHash,
        key: [UInt8],
        label: String,
        context: [UInt8],
        length: Int
    ) throws(KeyDerivationError) -> [UInt8] {
        guard length > 0, length * 8 <= Int(UInt16.max) else {
            throw .outputLengthOutOfRange(operation: "KDF-\(hash)", length: length)
        }
        let bits = UInt16(length * 8)
        let lengthField = [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)]
        let labelBytes = Array(label.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.outputLength)
        var counter: UInt16 = 1
        while output.count < length {
            let counterField = [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
            output += hash.hmac(key: key, counterField, labelBytes, context, lengthField)
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}

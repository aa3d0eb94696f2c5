/// The IEEE 802.11 key derivation function KDF-Hash-Length (IEEE 802.11-2020 12.7.1.6.2),
/// kept private to SAE so this folder does not depend on the general KDF being written in
/// parallel in `KDF/`; the two are to be unified (nan-wire-reference.md 3.4.2 gives the same
/// formula for PASN).
///
/// result = L(HMAC(K, i || label || context || Length) for i = 1, 2, ..., 0, Length), with
/// i and Length (in bits) as 16-bit little-endian integers and the label without a NUL.
enum SAEKeyDerivation {
    static func derive(
        _ hash: SAEHash,
        key: [UInt8],
        label: String,
        context: [UInt8],
        length: Int
    ) -> [UInt8] {
        let bits = UInt16(truncatingIfNeeded: length * 8)
        let lengthField = littleEndian(bits)
        var output: [UInt8] = []
        var counter: UInt16 = 1
        while output.count < length {
            output += hash.hmac(key: key, littleEndian(counter), Array(label.utf8), context, lengthField)
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    static func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
}

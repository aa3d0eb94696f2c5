/// PBKDF2 (RFC 8018 5.2) with HMAC-SHA-256 or HMAC-SHA-384 as the PRF, for the ND-PMK from a
/// passphrase (nan-wire-reference.md 4.2).
public enum PBKDF2 {
    public static func derive(
        hash: KDFHash,
        password: [UInt8],
        salt: [UInt8],
        iterations: Int,
        length: Int
    ) throws(KeyDerivationError) -> [UInt8] {
        guard iterations > 0 else { throw .outputLengthOutOfRange(operation: "PBKDF2 iterations", length: iterations) }
        guard length > 0, length <= hash.outputLength * 255 else {
            throw .outputLengthOutOfRange(operation: "PBKDF2", length: length)
        }
        var output: [UInt8] = []
        var blockIndex: UInt32 = 1
        while output.count < length {
            let indexField = [
                UInt8(truncatingIfNeeded: blockIndex >> 24), UInt8(truncatingIfNeeded: blockIndex >> 16),
                UInt8(truncatingIfNeeded: blockIndex >> 8), UInt8(truncatingIfNeeded: blockIndex),
            ]
            var u = hash.hmac(key: password, salt, indexField)
            var block = u
            for _ in 1..<iterations {
                u = hash.hmac(key: password, u)
                for position in block.indices { block[position] ^= u[position] }
            }
            output += block
            blockIndex &+= 1
        }
        return Array(output.prefix(length))
    }
}

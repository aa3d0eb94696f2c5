/// The Internet checksum (RFC 1071): the one's complement of the one's-complement sum of
/// 16-bit big-endian words, an odd last octet padded with a zero octet.
enum InternetChecksum {
    /// The folded one's-complement sum of `chunks`, read as one run of octets.
    static func sum(_ chunks: [ArraySlice<UInt8>]) -> UInt16 {
        // Word by word over each chunk's buffer: an iterator per octet costs more than the sum
        // (every data frame's UDP checksum is taken twice, when made and when received).
        var total: UInt64 = 0
        var odd = false
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { buffer in
                var index = 0
                if odd, !buffer.isEmpty {
                    // The low octet of a word whose high octet ended the previous chunk.
                    total &+= UInt64(buffer[0])
                    index = 1
                    odd = false
                }
                while index + 1 < buffer.count {
                    total &+= UInt64(buffer[index]) << 8 | UInt64(buffer[index + 1])
                    index += 2
                }
                if index < buffer.count {
                    total &+= UInt64(buffer[index]) << 8
                    odd = true
                }
            }
        }
        while total > 0xFFFF { total = (total & 0xFFFF) + (total >> 16) }
        return UInt16(truncatingIfNeeded: total)
    }
}

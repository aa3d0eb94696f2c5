/// The Internet checksum (RFC 1071): the one's complement of the one's-complement sum of
/// 16-bit big-endian words, an odd last octet padded with a zero octet.
enum InternetChecksum {
    /// The folded one's-complement sum of `chunks`, read as one run of octets.
    static func sum(_ chunks: [ArraySlice<UInt8>]) -> UInt16 {
        var total: UInt32 = 0
        var pending: UInt8?
        for chunk in chunks {
            for octet in chunk {
                if let high = pending {
                    total &+= UInt32(high) << 8 | UInt32(octet)
                    pending = nil
                } else {
                    pending = octet
                }
                if total > 0xFFFF { total = (total & 0xFFFF) + (total >> 16) }
            }
        }
        if let high = pending { total &+= UInt32(high) << 8 }
        while total > 0xFFFF { total = (total & 0xFFFF) + (total >> 16) }
        return UInt16(truncatingIfNeeded: total)
    }
}

/// The IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320, initial value and final XOR
/// 0xFFFFFFFF): the value zlib `crc32` and hostap `ieee80211_crc32` return. The SRF Bloom
/// filter hashes addresses with it (nan-wire-reference.md 2.4).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)]
        }
        return crc ^ 0xFFFF_FFFF
    }
}

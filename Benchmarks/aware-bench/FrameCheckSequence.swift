/// The baseline of decode-throughput: the IEEE 802.11 FCS, CRC-32 (reflected polynomial
/// 0xEDB88320, initial value and final XOR 0xFFFFFFFF), table-driven, one octet at a time.
///
/// It is AwareWire's `CRC32.checksum` over a concrete `[UInt8]` in this module, so the
/// optimizer specializes it: the generic one, called across modules, walks the octets
/// through protocol witnesses and would make a slow baseline. The two must agree (checked
/// before measuring).
enum FrameCheckSequence {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)] }
            return crc ^ 0xFFFF_FFFF
        }
    }
}

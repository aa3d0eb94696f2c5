/// Lower-case hex, as the reference, the fixtures and `--json` output write byte strings.
public enum HexString {
    private static let digits: [Character] = Array("0123456789abcdef")

    public static func byte(_ value: UInt8) -> String {
        String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }

    private static let asciiDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // Built as ASCII octets and decoded once: appending Characters one at a time
        // dominated `decode --json` profiles.
        var text: [UInt8] = []
        text.reserveCapacity(2 * bytes.underestimatedCount)
        for b in bytes {
            text.append(asciiDigits[Int(b >> 4)])
            text.append(asciiDigits[Int(b & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes hex digits, ignoring spaces, colons and a leading `0x`; nil on anything else
    /// or an odd number of digits.
    public static func decode(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        var out: [UInt8] = []
        out.reserveCapacity(body.utf8.count / 2)
        var high: UInt8?
        for c in body.utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}

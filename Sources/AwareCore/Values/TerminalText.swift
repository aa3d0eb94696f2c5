/// Text from the air, a capture or a peer, made safe to print on a terminal.
///
/// A TXT value, a service name or a pairing name is whatever the sender put there: printed raw,
/// an ESC (0x1B) starts a control sequence that can move the cursor, rewrite earlier lines or
/// retitle the window, and a carriage return hides what came before it. Every control
/// character (Unicode general category Cc: C0, DEL and C1), and every octet that is not UTF-8,
/// is shown as `\xHH` instead, and a backslash as `\\`, so the escaped text reads back
/// unambiguously. Machine output (JSON) keeps the value as it is: its encoder escapes control
/// characters itself (RFC 8259 7).
public enum TerminalText {
    /// `text` with control characters written as `\xHH` (every Cc character is below U+0100) and
    /// `\` as `\\`.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result += "\\\\"
            } else if scalar.properties.generalCategory == .control {
                result += "\\x" + HexString.byte(UInt8(truncatingIfNeeded: scalar.value)).uppercased()
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `octets` read as UTF-8 and escaped like ``escaped(_:)-(String)``; an octet that is not part
    /// of valid UTF-8 is written as `\xHH` too.
    public static func escaped(_ octets: some Collection<UInt8>) -> String {
        var result = ""
        var remaining = Array(octets)[...]
        while let first = remaining.first {
            // One scalar at a time, so that an octet that does not decode can be shown as itself.
            var decoder = UTF8()
            var iterator = remaining.makeIterator()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                result += escaped(String(scalar))
                remaining = remaining.dropFirst(String(scalar).utf8.count)
            } else {
                result += "\\x" + HexString.byte(first).uppercased()
                remaining = remaining.dropFirst()
            }
        }
        return result
    }
}

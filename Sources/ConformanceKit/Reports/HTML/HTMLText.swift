/// Text from the test, the accessory or the command line made safe for the page: element text and
/// attribute values both. The page is also well-formed XML (so an XML parser can judge it), so
/// characters XML forbids become U+FFFD rather than vanish silently.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                // XML 1.0 Char: no C0 controls but tab, newline, return; no U+FFFE/U+FFFF.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// An `id` attribute (and `#fragment`) for a test: its ID as the evidence directory spells it
    /// (`WA_DISC_MF_BV-03`), which has only letters, digits, `_` and `-`.
    static func anchor(_ id: TestID) -> String { "test-" + id.description.replacingOccurrences(of: "/", with: "_") }
}

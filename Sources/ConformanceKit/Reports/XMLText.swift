/// Escaping for the JUnit XML (XML 1.0, section 2.4 and 3.3.3).
enum XMLText {
    /// Character data: `&`, `<` and `>` escaped, characters XML 1.0 cannot carry written as `\u{..}`.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// An attribute value in double quotes. Tabs and line breaks become character references, because
    /// a parser would otherwise normalise them to spaces (XML 1.0, 3.3.3).
    static func attribute(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// XML 1.0's Char production: tab, LF, CR, and U+0020 up, minus U+FFFE and U+FFFF.
    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        let value = scalar.value
        let allowed =
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || value >= 0x10000
        if allowed {
            out.unicodeScalars.append(scalar)
        } else {
            out += "\\u{" + String(value, radix: 16) + "}"
        }
    }
}

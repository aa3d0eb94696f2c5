import AwareCore

/// The SPEC text form of a matching filter, shared by profiles and the runner's command line.
///
/// Items are separated by `:`. A token is read as:
/// - `*`: a wildcard (an empty item, nan-wire-reference.md 2.4);
/// - `hex` followed by a token of hex digits: the octets those digits spell (`hex:01:*:hex:03`);
/// - a token starting with `\`: the rest of the token, literally (`\*` is the one-octet item "*",
///   `\hex` the three-octet item "hex", `\\x` the item "\x"); a lone `\` is an error;
/// - anything else: its UTF-8 octets.
/// A colon can only be part of an item when written in hex (`hex:3a`). The empty SPEC is the
/// filter with no items.
extension MatchingFilter {
    public init(spec: String) throws(MatchingFilterSpecError) {
        var items: [[UInt8]] = []
        if spec.isEmpty {
            self.init(items: items)
            return
        }
        let tokens = spec.split(separator: ":", omittingEmptySubsequences: false)
        var position = 0
        var index = 0
        var wireLength = 0
        while index < tokens.count {
            let token = tokens[index]
            let tokenPosition = position
            position += token.count + 1
            index += 1
            let item: [UInt8]
            if token.isEmpty {
                throw .emptyItem(position: tokenPosition)
            } else if token == "*" {
                item = []
            } else if token == "hex" {
                guard index < tokens.count else {
                    throw .missingHexDigits(position: tokenPosition)
                }
                let digits = tokens[index]
                let digitsPosition = position
                position += digits.count + 1
                index += 1
                guard let octets = Self.hexOctets(digits) else {
                    throw .invalidHexDigits(position: digitsPosition, token: String(digits))
                }
                item = octets
            } else if token == "\\" {
                throw .danglingEscape(position: tokenPosition)
            } else if token.hasPrefix("\\") {
                item = Array(token.dropFirst().utf8)
            } else {
                item = Array(token.utf8)
            }
            if item.count > 255 {
                throw .itemTooLong(position: tokenPosition, octets: item.count)
            }
            wireLength += 1 + item.count
            items.append(item)
        }
        if wireLength > Self.maximumWireLength {
            throw .filterTooLong(octets: wireLength)
        }
        self.init(items: items)
    }

    /// The canonical SPEC: `*` for wildcards, plain text for items of printable ASCII without
    /// a colon (escaped with `\` when they would read as `*`, `hex` or an escape), `hex:` otherwise.
    public var spec: String {
        items.map(Self.specToken).joined(separator: ":")
    }

    private static func specToken(_ item: [UInt8]) -> String {
        if item.isEmpty { return "*" }
        let printable = item.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: ":") }
        guard printable else { return "hex:" + HexString.encode(item) }
        let text = String(decoding: item, as: UTF8.self)
        if text == "*" || text == "hex" || text.hasPrefix("\\") { return "\\" + text }
        return text
    }

    private static func hexOctets(_ digits: Substring) -> [UInt8]? {
        let utf8 = Array(digits.utf8)
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var octets: [UInt8] = []
        octets.reserveCapacity(utf8.count / 2)
        var at = 0
        while at < utf8.count {
            guard let high = nibble(utf8[at]), let low = nibble(utf8[at + 1]) else { return nil }
            octets.append(high << 4 | low)
            at += 2
        }
        return octets
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

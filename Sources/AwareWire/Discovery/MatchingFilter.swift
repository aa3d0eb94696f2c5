import AwareCore

/// A NAN matching filter: an ordered list of items; an empty item is a wildcard
/// (nan-wire-reference.md 2.4). On the wire it is a concatenation of
/// `<len(1)><value(len)>` items, at most 255 octets in all.
public struct MatchingFilter: Hashable, Sendable {
    /// The SDA's Matching Filter Length is one octet.
    public static let maximumWireLength = 255

    public var items: [[UInt8]]

    public init(items: [[UInt8]]) {
        self.items = items
    }

    /// Octets the filter takes on the wire: one length octet per item plus the items.
    public var wireLength: Int { items.reduce(0) { $0 + 1 + $1.count } }

    /// Whether the filter fits its 1-octet length field (255 octets in all, hence every item too).
    /// Writing a filter that does not is a programming error.
    public var fitsWireLimit: Bool { wireLength <= Self.maximumWireLength }

    /// Whether a subscriber's filter matches a publisher's, by the rule of nan-wire-reference.md 2.4
    /// (hostap `nan_de_filter_match`). The subscriber's filter is the one sent in a Subscribe, or
    /// the local receive filter when a Publish arrives.
    ///
    /// - No subscriber filter matches anything.
    /// - Items are compared in order: a pair matches if either item is empty (wildcard) or
    ///   both are equal (same length and octets).
    /// - Subscriber items beyond the publisher's last item match only if empty. An absent
    ///   publisher filter counts as zero items.
    ///
    /// Where hostap's loop differs from the reference's wording, this follows the reference:
    /// hostap rejects extra *empty* subscriber items when the publisher sent a (shorter) filter,
    /// and lets the first subscriber item pass against a present but zero-length publisher filter.
    public static func matches(subscriber: MatchingFilter?, publisher: MatchingFilter?) -> Bool {
        guard let subscriber else { return true }
        let publisherItems = publisher?.items ?? []
        for (position, subscriberItem) in subscriber.items.enumerated() {
            if subscriberItem.isEmpty { continue }
            guard position < publisherItems.count else { return false }
            let publisherItem = publisherItems[position]
            if publisherItem.isEmpty { continue }
            if publisherItem != subscriberItem { return false }
        }
        return true
    }
}

extension MatchingFilter: WireCodable {
    /// Reads `<len><value>` items until `reader` ends (the caller bounds it with the Matching
    /// Filter Length). An item length that runs past the end is a length mismatch; more than
    /// 255 octets in all is an invalid value.
    public init(from reader: inout WireReader) throws(WireError) {
        guard reader.remaining <= Self.maximumWireLength else {
            throw reader.error(
                .invalidValue("a matching filter of \(reader.remaining) octets exceeds 255"),
                field: "Matching Filter"
            )
        }
        items = []
        while !reader.isAtEnd {
            let length = Int(try reader.readUInt8("Matching Filter Item Length"))
            var value = try reader.subReader(length: length, field: "Matching Filter Item")
            items.append(value.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        for item in items {
            writer.withLength8 { $0.write(item) }
        }
    }
}

extension MatchingFilter: WireDescribable {
    public var decodedFields: [DecodedField] {
        [DecodedField("items", "Items", .list(items.map { .bytes($0) }))]
    }
}

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

/// Why a matching-filter SPEC string (`drone:*:v2`, `hex:01:*:hex:03`) could not be read.
///
/// `position` is the 0-based character offset in the SPEC where the offending token starts
/// (or the end of the SPEC when a token is missing), so a person can point at it.
public enum MatchingFilterSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two colons in a row, or a leading or trailing colon.
    case emptyItem(position: Int)
    /// A token that is a lone `\`: an escape with nothing to escape.
    case danglingEscape(position: Int)
    /// `hex:` at the end of the SPEC, with no hex-digit token after it.
    case missingHexDigits(position: Int)
    /// The token after `hex:` is not a non-empty, even-length run of hex digits.
    case invalidHexDigits(position: Int, token: String)
    /// One item is longer than its one-octet length field can say.
    case itemTooLong(position: Int, octets: Int)
    /// The items take more than 255 octets on the wire (each item is 1 + its length).
    case filterTooLong(octets: Int)

    public var description: String {
        switch self {
        case .emptyItem(let position):
            return "empty item at position \(position); write `*` for a wildcard item"
        case .danglingEscape(let position):
            return
                "a lone `\\` at position \(position) escapes nothing; write `*` for a wildcard or `\\\\` for a backslash"
        case .missingHexDigits(let position):
            return "`hex:` at position \(position) must be followed by hex digits, as in `hex:0a1b`"
        case .invalidHexDigits(let position, let token):
            return "\"\(token)\" at position \(position) is not an even number of hex digits"
        case .itemTooLong(let position, let octets):
            return "the item at position \(position) is \(octets) octets long; an item holds at most 255"
        case .filterTooLong(let octets):
            return "the filter takes \(octets) octets on the wire (1 + length per item); at most 255 are allowed"
        }
    }
}

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

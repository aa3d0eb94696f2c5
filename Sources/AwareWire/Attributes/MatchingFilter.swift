/// A NAN matching filter: an ordered list of items; an empty item is a wildcard
/// (nan-wire-reference.md 2.4). On the wire it is a concatenation of
/// `<len(1)><value(len)>` items, at most 255 octets in all.
public struct MatchingFilter: Hashable, Sendable {
    public var items: [[UInt8]]

    public init(items: [[UInt8]]) {
        self.items = items
    }
}

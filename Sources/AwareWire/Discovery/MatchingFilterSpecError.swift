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

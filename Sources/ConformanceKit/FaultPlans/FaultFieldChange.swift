/// How a `corrupt` step changes a field: XOR with a pattern (repeated over the field), or set
/// it to given octets (as many as the field has).
public enum FaultFieldChange: Hashable, Sendable {
    case xor([UInt8])
    case set([UInt8])

    /// `frame` with `range` changed; nil when `set` does not fit the field.
    func apply(to frame: [UInt8], at range: Range<Int>) -> [UInt8]? {
        var changed = frame
        switch self {
        case .xor(let pattern):
            guard !pattern.isEmpty else { return nil }
            for (step, index) in range.enumerated() { changed[index] ^= pattern[step % pattern.count] }
        case .set(let octets):
            guard octets.count == range.count else { return nil }
            changed.replaceSubrange(range, with: octets)
        }
        return changed
    }
}

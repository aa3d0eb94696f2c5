/// Comparisons of secrets (MICs, tags, confirms) whose running time does not depend on where
/// the first differing octet is, so that a forger learns nothing from timing.
public enum ConstantTime {
    /// True when both byte strings are identical. Different lengths compare unequal; the length
    /// itself is not secret.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}

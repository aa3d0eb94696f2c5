/// Whether `lhs` and `rhs` hold the same octets, in time that depends only on their lengths:
/// a confirm compared octet by octet with an early exit would tell an attacker how many
/// leading octets of a forgery were right (issue 4, "confirm comparisons run in constant
/// time"). The lengths are public (they follow from the group), so a length mismatch may
/// return at once.
func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
}

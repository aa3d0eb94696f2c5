/// The two values of an SAE Commit message (IEEE 802.11-2020 12.4.5.3): the commit-scalar
/// and the commit-element x || y, each coordinate and the scalar as long as the group's
/// prime (32 octets for group 19, 48 for group 20).
public struct SAECommit: Hashable, Sendable {
    public var scalar: [UInt8]
    public var element: [UInt8]

    public init(scalar: [UInt8], element: [UInt8]) {
        self.scalar = scalar
        self.element = element
    }
}

/// A free-form label on a test (`slow`, `interop-apple`, `filters`): shown by `list`, written to the
/// reports. Lower-case words joined by hyphens, so they read the same in every output.
public struct TestTag: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) throws(CatalogueError) {
        let words = name.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            !words.isEmpty
            && words.allSatisfy { word in
                !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
        guard valid else { throw .invalidTag(name) }
        self.name = name
    }

    public var description: String { name }

    public static func < (lhs: TestTag, rhs: TestTag) -> Bool { lhs.name < rhs.name }
}

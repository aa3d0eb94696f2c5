/// A catalogue that cannot be built: a programming error in the test definitions, reported with the
/// offending ID so it is fixed before any run.
public enum CatalogueError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidTestID(String, reason: String)
    case duplicateTestID(String)
    case invalidTag(String)

    public var description: String {
        switch self {
        case .invalidTestID(let text, let reason): "invalid test ID \"\(text)\": \(reason)"
        case .duplicateTestID(let id): "two tests share the ID \(id)"
        case .invalidTag(let tag): "invalid tag \"\(tag)\": tags are lower-case words joined by hyphens"
        }
    }
}

/// Why a profile could not be loaded.
public enum ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(path: String, reason: String)
    /// The file is not JSON; line and column are 1-based.
    case malformedJSON(line: Int, column: Int, reason: String)
    /// The JSON breaks one or more rules; every problem found is listed.
    case invalid([ProfileIssue])

    /// The problems as issues (one for a file that cannot be read or parsed).
    public var issues: [ProfileIssue] {
        switch self {
        case .unreadable(_, let reason): return [ProfileIssue(path: "", message: reason)]
        case .malformedJSON(let line, let column, let reason):
            return [ProfileIssue(path: "", message: "not valid JSON at line \(line), column \(column): \(reason)")]
        case .invalid(let issues): return issues
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read profile \(path): \(reason)"
        case .malformedJSON(let line, let column, let reason):
            return "not valid JSON at line \(line), column \(column): \(reason)"
        case .invalid(let issues): return issues.map(\.description).joined(separator: "\n")
        }
    }
}

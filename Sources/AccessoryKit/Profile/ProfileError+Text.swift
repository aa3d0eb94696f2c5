extension ProfileError {
    /// What a person reads when `file` does not load: one line per problem, naming the JSON
    /// path and the rule, then a count; or where the JSON is broken; or why it cannot be read.
    public func lines(file: String) -> [String] {
        switch self {
        case .unreadable:
            return ["\(self)"]
        case .malformedJSON(let line, let column, let reason):
            return ["\(file):\(line):\(column): not valid JSON: \(reason)"]
        case .invalid(let issues):
            let count = issues.count
            return issues.map(\.description) + [
                "\(file): \(count) problem\(count == 1 ? "" : "s"); see docs/reference/profile-reference.md"
            ]
        }
    }
}

/// An `--only` / `--skip` pattern over test IDs. `*` matches any run of characters, `/` included
/// (`WA/DISC/*` selects `WA/DISC/MF/BV-03`), `?` matches one character; everything else matches
/// itself, ignoring case (IDs are upper-case, typing them need not be).
public struct TestPattern: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    private let characters: [Character]

    public init(_ text: String) {
        self.text = text
        characters = Array(text.uppercased())
    }

    public var description: String { text }

    public func matches(_ id: TestID) -> Bool { matches(id.description) }

    public func matches(_ candidate: String) -> Bool {
        let subject = Array(candidate.uppercased())
        // Greedy match with one backtrack point: the last `*` seen and where its run began.
        var p = 0
        var s = 0
        var star: (pattern: Int, subject: Int)?
        while s < subject.count {
            if p < characters.count, characters[p] == "*" {
                star = (p, s)
                p += 1
            } else if p < characters.count, characters[p] == "?" || characters[p] == subject[s] {
                p += 1
                s += 1
            } else if let backtrack = star {
                p = backtrack.pattern + 1
                s = backtrack.subject + 1
                star = (backtrack.pattern, backtrack.subject + 1)
            } else {
                return false
            }
        }
        while p < characters.count, characters[p] == "*" { p += 1 }
        return p == characters.count
    }
}

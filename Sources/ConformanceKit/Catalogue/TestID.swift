/// A test's stable identifier, in the one scheme every test uses: `WA/<GROUP>[/<SUBGROUP>...]/BV-nn` or
/// `.../BI-nn`, e.g. `WA/DISC/MF/BV-03`.
///
/// The shape follows Bluetooth's qualification test case IDs (Bluetooth SIG, "Test Documentation"): path segments name the area, `BV`
/// tests valid behaviour and `BI` invalid behaviour. IDs are what CI histories, `--only` patterns and
/// JUnit `name` attributes key on, so they never change meaning once published; a retired test's ID is
/// not reused.
public struct TestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first segment of every ID.
    public static let root = "WA"

    /// The path segments before the kind: `["WA", "DISC", "MF"]`.
    public let path: [String]
    public let kind: TestKind
    public let number: Int

    /// Parses and validates `text`.
    public init(_ text: String) throws(CatalogueError) {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 3 else {
            throw .invalidTestID(text, reason: "needs WA, a group and a BV-nn or BI-nn part")
        }
        guard segments[0] == Self.root else {
            throw .invalidTestID(text, reason: "must start with \(Self.root)/")
        }
        for segment in segments.dropLast() where !Self.isPathSegment(segment) {
            throw .invalidTestID(
                text,
                reason:
                    "path segment \"\(segment)\" must be 1 to 8 upper-case letters or digits, starting with a letter"
            )
        }
        let last = segments[segments.count - 1]
        let parts = last.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = TestKind(rawValue: String(parts[0])) else {
            throw .invalidTestID(text, reason: "must end in BV-nn or BI-nn")
        }
        let digits = parts[1]
        guard (2...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(digits), number > 0
        else {
            throw .invalidTestID(text, reason: "the test number must be 01 to 999, at least two digits")
        }
        // One spelling per ID: "BV-3" and "BV-003" would otherwise name "BV-03" too.
        guard digits.count == 2 || number >= 100 else {
            throw .invalidTestID(text, reason: "numbers below 100 are written with two digits")
        }
        self.path = Array(segments.dropLast())
        self.kind = kind
        self.number = number
    }

    private static func isPathSegment(_ segment: String) -> Bool {
        guard let first = segment.unicodeScalars.first, (1...8).contains(segment.unicodeScalars.count) else {
            return false
        }
        return ("A"..."Z").contains(first)
            && segment.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// The test group: the first two segments (`WA/DISC`). Groups are JUnit suites and summary rows.
    public var group: String { path.prefix(2).joined(separator: "/") }

    public var description: String {
        path.joined(separator: "/") + "/" + kind.rawValue + "-" + (number < 10 ? "0\(number)" : "\(number)")
    }

    /// A file-name-safe form for evidence directories: `/` becomes `_` (IDs never contain `_`).
    public var fileName: String { description.replacingOccurrences(of: "/", with: "_") }

    /// Path segments first (so a group's tests sit together), then BV before BI, then the number.
    public static func < (lhs: TestID, rhs: TestID) -> Bool {
        if lhs.path != rhs.path { return lhs.path.lexicographicallyPrecedes(rhs.path) }
        if lhs.kind != rhs.kind { return lhs.kind == .validBehaviour }
        return lhs.number < rhs.number
    }
}

/// Whether a test checks the accessory's behaviour on valid input or its handling of invalid input
/// (the Bluetooth qualification convention: Bluetooth SIG, "Test Documentation").
public enum TestKind: String, Hashable, Sendable, CaseIterable {
    case validBehaviour = "BV"
    case invalidBehaviour = "BI"
}

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

    /// The test ends with wrong PINs counted against the accessory's limit and no correct PIN
    /// after them: on an accessory the tests share, the runner runs it after the others
    /// (``TestRunner``), so its count cannot lock the phones of the tests after it.
    public static let leavesWrongPIN = TestTag(known: "leaves-wrong-pin")

    /// A name this file spells, known to be valid.
    private init(known name: String) {
        self.name = name
    }
}

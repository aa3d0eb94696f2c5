import AwareCore

/// For each accessory fault, the tests it must make fail against one profile: what `aware-conform selftest`
/// checks after each fault's run, written out by `aware-conform list --profile FILE --fault-matrix`.
///
/// `Fixtures/selftest/<profile>-matrix.json` records it for each shipped profile, so a change to the
/// contract (a test's `brokenBy`, a shared step, a profile condition) shows in review as a change to that
/// file; `selftest` says whether its contract equals the recording.
public struct FaultMatrix: Hashable, Sendable {
    /// The profile's file name, for people reading the file; not compared.
    public var profile: String
    /// Fault name → the IDs of the tests it must make fail (empty: no test can catch it with this profile).
    public var failures: [String: Set<String>]

    public init(profile: String, failures: [String: Set<String>]) {
        self.profile = profile
        self.failures = failures
    }

    /// The matrix the catalogue gives for `profile`: every fault it knows, with its expected failures.
    public init(profile: ProfileFacts?) {
        var failures: [String: Set<String>] = [:]
        for fault in ConformanceSuites.faults {
            failures[fault] = ConformanceSuites.expectedFailures(for: fault, profile: profile)
        }
        let path = profile?.path ?? ""
        self.init(profile: String(path.split(separator: "/").last ?? Substring(path)), failures: failures)
    }

    /// Faults in name order, each with its tests in catalogue order.
    public var rows: [(fault: String, tests: [String])] {
        failures.keys.sorted().map { fault in (fault, Self.catalogueOrder(failures[fault] ?? [])) }
    }

    /// The file's text: faults in name order, one test ID a line, so a changed expectation is a one-line diff.
    public var json: String {
        let about =
            "For each accessory fault, the tests it must make fail against this profile: what "
            + "aware-conform selftest checks. Written by aware-conform list --profile FILE --fault-matrix; "
            + "a change here is a change to the fault-to-test contract."
        let faults = JSONValue.object(rows.map { ($0.fault, .array($0.tests.map(JSONValue.string))) })
        let document = JSONValue.object([("about", .string(about)), ("profile", .string(profile)), ("faults", faults)])
        return document.serialized(.prettyPrinted) + "\n"
    }

    /// Reads a matrix written by ``json``.
    public init(parsing bytes: some Collection<UInt8>) throws(FaultMatrixError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw .syntax(error.description)
        }
        guard let members = document["faults"]?.objectValue else {
            throw .shape("no \"faults\" object")
        }
        var failures: [String: Set<String>] = [:]
        for (fault, tests) in members {
            guard let ids = tests.arrayValue?.compactMap(\.stringValue), ids.count == tests.arrayValue?.count else {
                throw .shape("\"\(fault)\" is not an array of test IDs")
            }
            failures[fault] = Set(ids)
        }
        self.init(profile: document["profile"]?.stringValue ?? "", failures: failures)
    }

    /// How `self` differs from `recorded`, a line per fault that differs; empty when they agree.
    public func differences(from recorded: FaultMatrix) -> [String] {
        var lines: [String] = []
        for fault in Set(failures.keys).union(recorded.failures.keys).sorted() {
            guard let now = failures[fault] else {
                lines.append("\(fault): recorded, but no test declares it any more")
                continue
            }
            guard let then = recorded.failures[fault] else {
                lines.append("\(fault): declared, but not recorded")
                continue
            }
            let added = Self.catalogueOrder(now.subtracting(then))
            let removed = Self.catalogueOrder(then.subtracting(now))
            guard !added.isEmpty || !removed.isEmpty else { continue }
            var parts: [String] = []
            if !added.isEmpty { parts.append("now also " + added.joined(separator: ", ")) }
            if !removed.isEmpty { parts.append("no longer " + removed.joined(separator: ", ")) }
            lines.append("\(fault): " + parts.joined(separator: "; "))
        }
        return lines
    }

    /// Test IDs in catalogue order (a text that is no test ID goes last, in text order).
    static func catalogueOrder(_ ids: Set<String>) -> [String] {
        ids.sorted { lhs, rhs in
            switch (try? TestID(lhs), try? TestID(rhs)) {
            case (let l?, let r?): l < r
            case (.some, .none): true
            case (.none, .some): false
            case (.none, .none): lhs < rhs
            }
        }
    }
}

/// A fault matrix file that cannot be read.
public enum FaultMatrixError: Error, Hashable, Sendable, CustomStringConvertible {
    case syntax(String)
    case shape(String)

    public var description: String {
        switch self {
        case .syntax(let detail): "not JSON: \(detail)"
        case .shape(let detail): "not a fault matrix: \(detail)"
        }
    }
}

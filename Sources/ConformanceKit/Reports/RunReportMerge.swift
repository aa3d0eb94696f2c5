import Foundation

/// Joins the JSON reports of one run's shards (`run --shard I/N --json FILE`) into the report the
/// unsharded run would have written: the tests in catalogue order, counts and exit code recomputed
/// from them. Shards of one run share the tool version, target, profile, base seed, selection and
/// iterations; a test is in exactly one shard; all shards split the same N (docs/reference/reports.md,
/// "Merging shards"). A missing shard still gives a report of the rest, but one that says so: each
/// missing shard is a problem of the run (an environment error, exit 3), since a lost CI artifact
/// must fail the merge rather than pass it on fewer tests.
public struct RunReportMerge: Sendable {
    /// One shard's report and the file it came from, for messages.
    public struct Input: Sendable {
        public var file: String
        public var run: RunResult

        public init(file: String, run: RunResult) {
            self.file = file
            self.run = run
        }
    }

    public let result: RunResult
    /// Shards of 1...N that no input holds, e.g. `shard 3/3 is missing: its tests are not in the merged
    /// report`; each is also one of the result's problems.
    public let missingShards: [String]

    /// Reads and merges report files.
    public init(files: [String]) throws(RunReportMergeError) {
        var inputs: [Input] = []
        for file in files {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw .unreadable(file: file, reason: Self.reason(file: file, error))
            }
            inputs.append(Input(file: file, run: try RunReportParser.parse(data, file: file)))
        }
        try self.init(inputs)
    }

    public init(_ inputs: [Input]) throws(RunReportMergeError) {
        guard let first = inputs.first else { throw .noReports }
        let reference = first.run.metadata
        for input in inputs.dropFirst() {
            try Self.checkSettings(input, against: first)
        }
        let count = try Self.checkShards(inputs)
        var owner: [TestID: String] = [:]
        var shardOf: [TestID: Shard] = [:]
        var tests: [TestResult] = []
        for input in inputs {
            for test in input.run.tests {
                if let other = owner[test.id] {
                    throw .duplicateTest(file: input.file, test: test.id.description, other: other)
                }
                owner[test.id] = input.file
                shardOf[test.id] = input.run.metadata.shard
                tests.append(test)
            }
        }
        tests.sort { $0.id < $1.id }
        var missing: [Int] = []
        if let count {
            let present = Set(inputs.compactMap { $0.run.metadata.shard?.index })
            missing = (1...count).filter { !present.contains($0) }
        }
        if let count, missing.isEmpty {
            // With every shard present the merged list is the selection, so each test's place in it
            // says which shard must have run it (Shard: position k belongs to shard k % N + 1).
            for (position, test) in tests.enumerated() {
                guard let shard = shardOf[test.id], !shard.owns(position: position) else { continue }
                throw .misplacedTest(
                    file: owner[test.id] ?? "",
                    test: test.id.description,
                    owner: "\(position % count + 1)/\(count)"
                )
            }
        }
        missingShards = missing.map { "shard \($0)/\(count ?? 0) is missing: its tests are not in the merged report" }
        let runs = inputs.map(\.run)
        let startedAt = runs.map(\.metadata.startedAt).min() ?? reference.startedAt
        let earliest = runs.first { $0.metadata.startedAt == startedAt }?.metadata ?? reference
        let directories = Set(runs.map(\.metadata.evidenceDirectory))
        let metadata = RunMetadata(
            runID: earliest.runID + "-merged",
            toolVersion: reference.toolVersion,
            baseSeed: reference.baseSeed,
            target: reference.target,
            profilePath: reference.profilePath,
            shard: nil,
            jobs: runs.map(\.metadata.jobs).max() ?? reference.jobs,
            iterations: reference.iterations,
            only: reference.only,
            skip: reference.skip,
            // Shards usually keep evidence apart (one run ID each); each test names its own directory.
            evidenceDirectory: directories.count == 1 ? reference.evidenceDirectory : earliest.evidenceDirectory,
            evidenceForEveryTest: runs.allSatisfy(\.metadata.evidenceForEveryTest),
            startedAt: startedAt,
            phone: reference.phone
        )
        result = RunResult(
            metadata: metadata,
            finishedAt: runs.map(\.finishedAt).max() ?? first.run.finishedAt,
            tests: tests,
            problems: inputs.flatMap { input in input.run.problems.map { "\(input.file): \($0)" } } + missingShards
        )
    }

    static func checkSettings(_ input: Input, against first: Input) throws(RunReportMergeError) {
        let metadata = input.run.metadata
        let reference = first.run.metadata
        func list(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }
        let settings: [(String, String, String)] = [
            ("tool.version", metadata.toolVersion, reference.toolVersion),
            ("run.target", metadata.target, reference.target),
            ("run.profile", metadata.profilePath, reference.profilePath),
            ("run.seed", String(metadata.baseSeed), String(reference.baseSeed)),
            ("run.only", list(metadata.only), list(reference.only)),
            ("run.skip", list(metadata.skip), list(reference.skip)),
            ("run.iterations", String(metadata.iterations), String(reference.iterations)),
            ("run.phone", metadata.phone, reference.phone),
        ]
        for (field, value, expected) in settings where value != expected {
            throw .mismatch(
                file: input.file,
                field: field,
                value: value,
                reference: first.file,
                referenceValue: expected
            )
        }
    }

    /// The shards' common N, or nil for a single unsharded report.
    static func checkShards(_ inputs: [Input]) throws(RunReportMergeError) -> Int? {
        guard let first = inputs.first else { return nil }
        if inputs.count == 1 && first.run.metadata.shard == nil { return nil }
        var seen: [Int: String] = [:]
        var count: Int?
        for input in inputs {
            guard let shard = input.run.metadata.shard else { throw .notAShard(file: input.file) }
            if let count, shard.count != count {
                throw .mismatch(
                    file: input.file,
                    field: "run.shard",
                    value: shard.description,
                    reference: first.file,
                    referenceValue: first.run.metadata.shard?.description ?? "none"
                )
            }
            count = shard.count
            if let other = seen[shard.index] {
                throw .duplicateShard(file: input.file, shard: shard.description, other: other)
            }
            seen[shard.index] = input.file
        }
        return count
    }

    /// Foundation's read errors differ between platforms; these are the cases a person can act on.
    static func reason(file: String, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: file) { return "permission denied" }
        return (error as NSError).localizedDescription
    }
}

/// Why `aware-conform merge` refuses its input. Every case names the file at fault, so the message
/// tells the person which shard to look at (docs/reference/reports.md, "Merging shards").
public enum RunReportMergeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing to merge.
    case noReports
    /// The file could not be read at all.
    case unreadable(file: String, reason: String)
    /// The file is not JSON, or not the document `run --json` writes (`reason` names the key).
    case notAReport(file: String, reason: String)
    /// A run setting that must be the same in every shard differs: `field` is its name in the report.
    case mismatch(file: String, field: String, value: String, reference: String, referenceValue: String)
    /// Two reports hold the same test: the shards overlap, or one shard was given twice.
    case duplicateTest(file: String, test: String, other: String)
    /// Two reports are the same shard.
    case duplicateShard(file: String, shard: String, other: String)
    /// A report of a run without `--shard` among several reports.
    case notAShard(file: String)
    /// The shards are complete but a test sits in a shard that does not own its place in the
    /// selection: the shards were cut from different selections or catalogues.
    case misplacedTest(file: String, test: String, owner: String)

    public var description: String {
        switch self {
        case .noReports:
            "no reports to merge: give the JSON files of `aware-conform run --shard I/N --json FILE`"
        case .unreadable(let file, let reason):
            "\(file): cannot read: \(reason)"
        case .notAReport(let file, let reason):
            "\(file): not an aware-conform run report: \(reason)"
        case .mismatch(let file, let field, let value, let reference, let referenceValue):
            "\(file): \(field) is \(value) but \(referenceValue) in \(reference): shards of one run share it"
        case .duplicateTest(let file, let test, let other):
            "\(file): test \(test) is also in \(other)"
        case .duplicateShard(let file, let shard, let other):
            "\(file): is shard \(shard), as is \(other)"
        case .notAShard(let file):
            "\(file): not a shard (the run had no --shard I/N); merge joins the reports of one sharded run"
        case .misplacedTest(let file, let test, let owner):
            "\(file): test \(test) belongs to shard \(owner) of the merged selection: the shards were cut from "
                + "different selections"
        }
    }
}

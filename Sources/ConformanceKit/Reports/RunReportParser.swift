import AwareCore
import AwareProtocol
import AwareWire
import Foundation

/// Reads back the JSON report `aware-conform run --json` writes (docs/reference/reports.md, "JSON report") into
/// the ``RunResult`` it was rendered from, so merged shards go through the same renderers as a run.
/// Summary counts are not read: they follow from the tests and are recomputed.
public enum RunReportParser {
    public static func parse(_ data: Data, file: String) throws(RunReportMergeError) -> RunResult {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            throw .notAReport(file: file, reason: "not JSON at \(error)")
        }
        guard let object = document.objectValue else {
            throw .notAReport(file: file, reason: "the document is not a JSON object")
        }
        let root = ReportFields(object: object, path: "", file: file)
        let format = try root.string("format")
        guard format == JSONReport.format else {
            throw root.problem("format is \"\(format)\", expected \"\(JSONReport.format)\"")
        }
        let tool = try root.fields("tool")
        guard try tool.string("name") == "aware-conform" else { throw tool.problem("tool.name is not aware-conform") }
        let run = try root.fields("run")
        let evidence = try run.fields("evidence")
        let shard: Shard?
        if let fields = try run.optionalFields("shard") {
            let index = try fields.integer("index", minimum: 1)
            let count = try fields.integer("count", minimum: 1)
            do {
                shard = try Shard(index: index, count: count)
            } catch {
                throw fields.problem("key run.shard is \(index)/\(count): the index must be at most the count")
            }
        } else {
            shard = nil
        }
        let metadata = RunMetadata(
            runID: try run.string("id"),
            toolVersion: try tool.string("version"),
            baseSeed: try run.seed("seed"),
            target: try run.string("target"),
            profilePath: try run.string("profile"),
            shard: shard,
            jobs: try run.integer("jobs", minimum: 1),
            iterations: try run.integer("iterations", minimum: 1),
            only: try run.strings("only"),
            skip: try run.strings("skip"),
            evidenceDirectory: try evidence.string("directory"),
            evidenceForEveryTest: try evidence.bool("everyTest"),
            startedAt: try run.timestamp("startedAt"),
            // Reports from before phone profiles ran the reference phone.
            phone: try run.optionalString("phone") ?? PhoneProfile.Name.reference.rawValue
        )
        var tests: [TestResult] = []
        for fields in try root.list("tests") { tests.append(try test(fields)) }
        return RunResult(
            metadata: metadata,
            finishedAt: try run.timestamp("finishedAt"),
            tests: tests,
            problems: try root.strings("problems")
        )
    }

    static func test(_ fields: ReportFields) throws(RunReportMergeError) -> TestResult {
        let text = try fields.string("id")
        let id: TestID
        do {
            id = try TestID(text)
        } catch {
            throw fields.problem("key \(fields.name("id")): \(error)")
        }
        var tags: [TestTag] = []
        for name in try fields.strings("tags") {
            do {
                tags.append(try TestTag(name))
            } catch {
                throw fields.problem("key \(fields.name("tags")): \(error)")
            }
        }
        let verdict = try self.verdict(fields)
        var iterations: [IterationResult] = []
        for iteration in try fields.list("iterations") { iterations.append(try self.iteration(iteration)) }
        return TestResult(
            id: id,
            title: try fields.string("title"),
            tags: tags,
            verdict: verdict,
            message: try message(fields, verdict),
            errorOrigin: try errorOrigin(fields),
            seed: try fields.seed("seed"),
            iterations: iterations,
            plannedIterations: try fields.integer("plannedIterations", minimum: 1),
            rerunCommand: try fields.optionalString("rerun"),
            evidenceDirectory: try fields.optionalString("evidenceDirectory")
        )
    }

    static func iteration(_ fields: ReportFields) throws(RunReportMergeError) -> IterationResult {
        let verdict = try self.verdict(fields)
        var failures: [RecordedFailure] = []
        for failure in try fields.list("failures") {
            let seconds = try failure.seconds("t")
            guard let nanoseconds = UInt64(exactly: (seconds * 1e9).rounded()) else {
                throw failure.expected("t", "a time the test clock can hold")
            }
            failures.append(
                RecordedFailure(
                    message: try failure.string("message"),
                    location: try failure.string("location"),
                    time: Instant(nanoseconds: nanoseconds)
                )
            )
        }
        let evidence = try fields.optionalFields("evidence").map { files throws(RunReportMergeError) in
            EvidenceFiles(
                directory: try files.string("directory"),
                events: try files.string("events"),
                capture: try files.string("capture"),
                attachments: try files.strings("attachments")
            )
        }
        // `latency` came later within format 1: a report without it has no histograms.
        var latency: [LatencyHistogram] = []
        if fields.has("latency") {
            for histogram in try fields.list("latency") { latency.append(try self.latency(histogram)) }
        }
        return IterationResult(
            iteration: try fields.integer("iteration", minimum: 1),
            seed: try fields.seed("seed"),
            baseSeed: try fields.seed("baseSeed"),
            verdict: verdict,
            message: try message(fields, verdict),
            errorOrigin: try errorOrigin(fields),
            failures: failures,
            wallSeconds: try fields.seconds("wallSeconds"),
            virtualSeconds: try fields.optionalSeconds("virtualSeconds"),
            evidence: evidence,
            latency: latency
        )
    }

    static func latency(_ fields: ReportFields) throws(RunReportMergeError) -> LatencyHistogram {
        let category = try fields.string("accessCategory")
        guard let accessCategory = AccessCategory(rawValue: category) else {
            throw fields.problem(
                "key \(fields.name("accessCategory")) is \"\(category)\", not AC_BK, AC_BE, AC_VI or AC_VO"
            )
        }
        let name = try fields.string("measure")
        guard let measure = LatencyHistogram.Measure(rawValue: name) else {
            throw fields.problem("key \(fields.name("measure")) is \"\(name)\", not one-way or transmit")
        }
        var buckets: [LatencyHistogram.Bucket] = []
        for bucket in try fields.list("buckets") {
            buckets.append(
                LatencyHistogram.Bucket(
                    upToMilliseconds: try bucket.optionalSeconds("upToMs"),
                    count: try bucket.integer("count", minimum: 0)
                )
            )
        }
        return LatencyHistogram(
            accessCategory: accessCategory,
            measure: measure,
            samples: try fields.integer("samples", minimum: 1),
            p50Milliseconds: try fields.seconds("p50Ms"),
            p99Milliseconds: try fields.seconds("p99Ms"),
            maximumMilliseconds: try fields.seconds("maxMs"),
            buckets: buckets
        )
    }

    static func verdict(_ fields: ReportFields) throws(RunReportMergeError) -> TestVerdict {
        let text = try fields.string("verdict")
        guard let verdict = TestVerdict(rawValue: text) else {
            throw fields.problem("key \(fields.name("verdict")) is \"\(text)\", not a verdict")
        }
        return verdict
    }

    /// The report keeps a skip's reason and a failure's message under separate keys; the result
    /// holds either as its message.
    static func message(_ fields: ReportFields, _ verdict: TestVerdict) throws(RunReportMergeError) -> String? {
        if verdict == .skip { return try fields.optionalString("reason") }
        if verdict.isFailing { return try fields.optionalString("message") }
        return nil
    }

    static func errorOrigin(_ fields: ReportFields) throws(RunReportMergeError) -> ErrorOrigin? {
        guard let text = try fields.optionalString("errorOrigin") else { return nil }
        guard let origin = ErrorOrigin(rawValue: text) else {
            throw fields.problem("key \(fields.name("errorOrigin")) is \"\(text)\", not test or environment")
        }
        return origin
    }
}

/// One JSON object of a report read back, with typed accessors whose errors name the key by its
/// dotted path (`run.seed`, `tests[3].verdict`), so a malformed report says where it is wrong.
struct ReportFields {
    /// The members by key (the parser refuses a key given twice).
    let object: [String: JSONValue]
    /// The object's own path; empty for the document.
    let path: String
    let file: String

    init(object members: [(String, JSONValue)], path: String, file: String) {
        object = Dictionary(members, uniquingKeysWith: { first, _ in first })
        self.path = path
        self.file = file
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func problem(_ reason: String) -> RunReportMergeError { .notAReport(file: file, reason: reason) }

    func value(_ key: String) throws(RunReportMergeError) -> JSONValue {
        guard let value = object[key] else { throw problem("missing key \(name(key))") }
        return value
    }

    func expected(_ key: String, _ kind: String) -> RunReportMergeError {
        problem("key \(name(key)) is not \(kind)")
    }

    func string(_ key: String) throws(RunReportMergeError) -> String {
        guard let text = try value(key).stringValue else { throw expected(key, "a string") }
        return text
    }

    func optionalString(_ key: String) throws(RunReportMergeError) -> String? {
        let value = try value(key)
        if value == .null { return nil }
        guard let text = value.stringValue else { throw expected(key, "a string or null") }
        return text
    }

    func bool(_ key: String) throws(RunReportMergeError) -> Bool {
        guard let flag = try value(key).boolValue else { throw expected(key, "true or false") }
        return flag
    }

    func integer(_ key: String, minimum: Int) throws(RunReportMergeError) -> Int {
        guard let number = try value(key).integerValue.flatMap({ Int(exactly: $0) }), number >= minimum else {
            throw expected(key, "an integer of at least \(minimum)")
        }
        return number
    }

    func seconds(_ key: String) throws(RunReportMergeError) -> Double {
        guard let number = try value(key).doubleValue, number.isFinite, number >= 0 else {
            throw expected(key, "a number of seconds")
        }
        return number
    }

    func optionalSeconds(_ key: String) throws(RunReportMergeError) -> Double? {
        let value = try value(key)
        if value == .null { return nil }
        guard let number = value.doubleValue, number.isFinite, number >= 0 else {
            throw expected(key, "a number of seconds or null")
        }
        return number
    }

    /// Seeds are decimal strings (docs/reference/reports.md, "Seeds").
    func seed(_ key: String) throws(RunReportMergeError) -> UInt64 {
        guard let seed = UInt64(try string(key)) else { throw expected(key, "a 64-bit seed in decimal") }
        return seed
    }

    func timestamp(_ key: String) throws(RunReportMergeError) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        guard let date = formatter.date(from: try string(key)) else {
            throw expected(key, "a timestamp like 2026-05-12T14:15:03.123Z")
        }
        return date
    }

    func fields(_ key: String) throws(RunReportMergeError) -> ReportFields {
        guard let object = try value(key).objectValue else { throw expected(key, "an object") }
        return ReportFields(object: object, path: name(key), file: file)
    }

    func optionalFields(_ key: String) throws(RunReportMergeError) -> ReportFields? {
        let value = try value(key)
        if value == .null { return nil }
        guard let object = value.objectValue else { throw expected(key, "an object or null") }
        return ReportFields(object: object, path: name(key), file: file)
    }

    func strings(_ key: String) throws(RunReportMergeError) -> [String] {
        guard let list = try value(key).arrayValue else { throw expected(key, "a list") }
        var strings: [String] = []
        for (index, element) in list.enumerated() {
            guard let text = element.stringValue else { throw expected("\(key)[\(index)]", "a string") }
            strings.append(text)
        }
        return strings
    }

    func list(_ key: String) throws(RunReportMergeError) -> [ReportFields] {
        guard let list = try value(key).arrayValue else { throw expected(key, "a list") }
        var objects: [ReportFields] = []
        for (index, element) in list.enumerated() {
            guard let object = element.objectValue else { throw expected("\(key)[\(index)]", "an object") }
            objects.append(ReportFields(object: object, path: name("\(key)[\(index)]"), file: file))
        }
        return objects
    }
}

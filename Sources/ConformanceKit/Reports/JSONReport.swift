import AwareCore
import AwareWire
import Foundation

/// The run as one JSON document for machines (docs/reference/reports.md, "JSON report"; the schema is
/// docs/reference/report.schema.json). Every key is always present, with null where it does not apply; seeds
/// are decimal strings because they are 64-bit and JSON readers commonly keep only 53 bits.
public enum JSONReport {
    /// The value of `"format"`. The number changes only when a key changes name or meaning; new keys
    /// may be added within a version.
    public static let format = "aware-conform-report/1"

    public static func render(_ run: RunResult) -> String { document(run).serialized([.prettyPrinted]) + "\n" }

    static func document(_ run: RunResult) -> JSONValue {
        let metadata = run.metadata
        let groups: [JSONValue] = run.groups.map { group in
            let tests = run.tests.filter { $0.group == group }
            return .sortedObject(["group": .string(group)].merging(counts(tests)) { first, _ in first })
        }
        var summary = counts(run.tests)
        summary["groups"] = .array(groups)
        summary["exitCode"] = .integer(Int64(run.exitCode.rawValue))
        return .sortedObject([
            "format": .string(format),
            "tool": .sortedObject(["name": .string("aware-conform"), "version": .string(metadata.toolVersion)]),
            "run": .sortedObject([
                "id": .string(metadata.runID),
                "seed": .string(String(metadata.baseSeed)),
                "target": .string(metadata.target),
                "profile": .string(metadata.profilePath),
                "phone": .string(metadata.phone),
                "shard": metadata.shard.map { .sortedObject(["index": int($0.index), "count": int($0.count)]) }
                    ?? .null,
                "jobs": int(metadata.jobs),
                "iterations": int(metadata.iterations),
                "only": .array(metadata.only.map(JSONValue.string)),
                "skip": .array(metadata.skip.map(JSONValue.string)),
                "evidence": .sortedObject([
                    "directory": .string(metadata.evidenceDirectory),
                    "everyTest": .bool(metadata.evidenceForEveryTest),
                ]),
                "startedAt": .string(ReportTime.iso8601(metadata.startedAt)),
                "finishedAt": .string(ReportTime.iso8601(run.finishedAt)),
                "wallSeconds": .double(ReportTime.seconds(run.wallSeconds)),
            ]),
            "summary": .sortedObject(summary),
            "problems": .array(run.problems.map(JSONValue.string)),
            "tests": .array(run.tests.map(test)),
        ])
    }

    static func counts(_ tests: [TestResult]) -> [String: JSONValue] {
        var counts: [String: JSONValue] = ["tests": int(tests.count)]
        for verdict in TestVerdict.allCases {
            counts[verdict.rawValue] = int(tests.count { $0.verdict == verdict })
        }
        return counts
    }

    static func test(_ test: TestResult) -> JSONValue {
        .sortedObject([
            "id": .string(test.id.description),
            "title": .string(test.title),
            "group": .string(test.group),
            "tags": .array(test.tags.map { .string($0.name) }),
            "verdict": .string(test.verdict.rawValue),
            "reason": test.verdict == .skip ? optional(test.message) : .null,
            "message": test.verdict.isFailing ? optional(test.message) : .null,
            "errorOrigin": optional(test.errorOrigin?.rawValue),
            "seed": .string(String(test.seed)),
            "plannedIterations": int(test.plannedIterations),
            "iterations": .array(test.iterations.map(iteration)),
            "wallSeconds": .double(ReportTime.seconds(test.wallSeconds)),
            "virtualSeconds": test.virtualSeconds.map { .double($0) } ?? .null,
            "evidenceDirectory": optional(test.evidenceDirectory),
            "rerun": optional(test.rerunCommand),
        ])
    }

    static func iteration(_ iteration: IterationResult) -> JSONValue {
        .sortedObject([
            "iteration": int(iteration.iteration),
            "seed": .string(String(iteration.seed)),
            "baseSeed": .string(String(iteration.baseSeed)),
            "verdict": .string(iteration.verdict.rawValue),
            "reason": iteration.verdict == .skip ? optional(iteration.message) : .null,
            "message": iteration.verdict.isFailing ? optional(iteration.message) : .null,
            "errorOrigin": optional(iteration.errorOrigin?.rawValue),
            "failures": .array(
                iteration.failures.map { failure in
                    .sortedObject([
                        "message": .string(failure.message),
                        "location": .string(failure.location),
                        "t": .double(failure.time.seconds),
                    ])
                }
            ),
            "wallSeconds": .double(ReportTime.seconds(iteration.wallSeconds)),
            "virtualSeconds": iteration.virtualSeconds.map { .double($0) } ?? .null,
            "latency": .array(iteration.latency.map(latency)),
            "evidence": iteration.evidence.map { files in
                .sortedObject([
                    "directory": .string(files.directory),
                    "events": .string(files.events),
                    "capture": .string(files.capture),
                    "attachments": .array(files.attachments.map(JSONValue.string)),
                ])
            } ?? .null,
        ])
    }

    /// Added within format 1 (docs/reference/reports.md, "An iteration"); readers of older reports see no key.
    static func latency(_ histogram: LatencyHistogram) -> JSONValue {
        .sortedObject([
            "accessCategory": .string(histogram.accessCategory.rawValue),
            "measure": .string(histogram.measure.rawValue),
            "samples": int(histogram.samples),
            "p50Ms": .double(histogram.p50Milliseconds),
            "p99Ms": .double(histogram.p99Milliseconds),
            "maxMs": .double(histogram.maximumMilliseconds),
            "buckets": .array(
                histogram.buckets.map { bucket in
                    .sortedObject([
                        "upToMs": bucket.upToMilliseconds.map { .double($0) } ?? .null,
                        "count": int(bucket.count),
                    ])
                }
            ),
        ])
    }

    private static func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }
    private static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}

extension JSONValue {
    /// An object with its keys in sorted order: how every object of the reports and events is built,
    /// so their bytes depend only on their content.
    static func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.keys.sorted().map { ($0, members[$0, default: .null]) })
    }
}

/// Times as the reports write them.
enum ReportTime {
    /// RFC 3339 / ISO 8601 in UTC with milliseconds: `2026-05-12T14:15:03.123Z` (JSON report).
    static func iso8601(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'") }

    /// `2026-05-12T14:15:03`, UTC without a zone: the form Ant's JUnit task writes and CI servers read.
    static func junitTimestamp(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ss") }

    /// Seconds with millisecond precision, no exponent: `0.012` (JUnit `time`).
    static func junitSeconds(_ value: Double) -> String { String(format: "%.3f", max(0, value)) }

    /// Seconds rounded to microseconds (JSON report durations).
    static func seconds(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

    private static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

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

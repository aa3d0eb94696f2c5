/// Where evidence goes (docs/reference/reports.md, "Evidence"):
///
///     <dir>/<ID with / as _>/events.jsonl                  one iteration
///     <dir>/<ID with / as _>/capture.pcap
///     <dir>/<ID with / as _>/iteration-<k>/events.jsonl    with --iterations N > 1
///     <dir>/<ID with / as _>/iteration-<k>/capture.pcap
public enum EvidenceLayout {
    public static let eventsFile = "events.jsonl"
    public static let captureFile = "capture.pcap"

    public static func testDirectory(_ root: String, _ id: TestID) -> String { join(root, id.fileName) }

    public static func iterationDirectory(_ root: String, _ id: TestID, iteration: Int, of count: Int) -> String {
        let test = testDirectory(root, id)
        return count > 1 ? join(test, "iteration-\(iteration)") : test
    }

    static func join(_ base: String, _ component: String) -> String {
        base.isEmpty ? component : (base.hasSuffix("/") ? base + component : base + "/" + component)
    }
}

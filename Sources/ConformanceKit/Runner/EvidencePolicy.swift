/// Which tests leave evidence on disk (events.jsonl, capture.pcap, attachments).
public enum EvidencePolicy: Hashable, Sendable {
    /// `--evidence DIR`: every iteration that ran, passed or failed, under DIR.
    case everyTest(directory: String)
    /// The default: failing iterations only, under `root/<run-id>`, so runs never overwrite each other.
    case failingTests(root: String)

    public static let defaultRoot = "aware-conform-evidence"
    public static let `default` = EvidencePolicy.failingTests(root: defaultRoot)

    func directory(runID: String) -> String {
        switch self {
        case .everyTest(let directory): directory
        case .failingTests(let root): EvidenceLayout.join(root, runID)
        }
    }

    func keeps(_ verdict: TestVerdict) -> Bool {
        switch self {
        case .everyTest: true
        case .failingTests: verdict.isFailing
        }
    }
}

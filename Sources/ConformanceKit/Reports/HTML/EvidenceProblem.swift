/// Why a piece of a test's evidence is not on the page. The page shows it in place of the piece,
/// marked, so a broken or moved evidence directory never costs the rest of the report.
enum EvidenceProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The iteration kept no evidence (it passed without `--evidence`, or did not run).
    case notKept
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case notACapture(path: String)
    case malformedCapture(path: String, reason: String)

    var description: String {
        switch self {
        case .notKept: "no evidence was kept for this test"
        case .missing(let path): "\(path) is missing: was the evidence directory moved or deleted?"
        case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)"
        case .notACapture(let path): "\(path) is not a pcap or pcapng capture"
        case .malformedCapture(let path, let reason): "\(path) is malformed: \(reason)"
        }
    }
}

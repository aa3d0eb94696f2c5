import AwareCore
import AwareWire
import Foundation

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

/// Where one iteration's evidence was written: paths as the run was configured (relative paths stay
/// relative to the directory the runner ran in).
public struct EvidenceFiles: Hashable, Sendable {
    public var directory: String
    public var events: String
    public var capture: String
    /// Other files the test attached, by name.
    public var attachments: [String]

    public init(directory: String, events: String, capture: String, attachments: [String]) {
        self.directory = directory
        self.events = events
        self.capture = capture
        self.attachments = attachments
    }
}

/// What a test left when its context was sealed, ready to be written.
struct EvidenceSnapshot: Sendable {
    var events: [EventLine]
    var captureRecords: [CaptureRecord]
    var captureBytes: [UInt8]?
    var attachments: [String: [UInt8]]
    var finalTime: Instant

    var eventsJSONL: String { events.map { $0.json + "\n" }.joined() }

    /// The pcap: the one the test set, else the frames it captured (radiotap when they carry it).
    var pcap: [UInt8] {
        if let captureBytes { return captureBytes }
        let linkType = captureRecords.first?.linkType ?? .ieee80211Radiotap
        return PcapFile(linkType: linkType, records: captureRecords).bytes
    }
}

/// Writes a sealed context's evidence. Files are written whole after the test ends (or the guard
/// fires), so a kept directory always holds complete, parseable files.
struct EvidenceWriter: Sendable {
    func write(_ snapshot: EvidenceSnapshot, to directory: String) throws -> EvidenceFiles {
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let events = EvidenceLayout.join(directory, EvidenceLayout.eventsFile)
        let capture = EvidenceLayout.join(directory, EvidenceLayout.captureFile)
        try AtomicFile.write(Array(snapshot.eventsJSONL.utf8), to: events)
        try AtomicFile.write(snapshot.pcap, to: capture)
        var attachments: [String] = []
        for name in snapshot.attachments.keys.sorted() {
            let path = EvidenceLayout.join(directory, name)
            try AtomicFile.write(snapshot.attachments[name] ?? [], to: path)
            attachments.append(path)
        }
        return EvidenceFiles(directory: directory, events: events, capture: capture, attachments: attachments)
    }
}

/// One line of `events.jsonl` (docs/reference/reports.md, "events.jsonl"): `t` (seconds on the test's clock),
/// `event` (what happened), then the event's own keys in sorted order.
public struct EventLine: Hashable, Sendable {
    /// Keys every line starts with; an event's own fields may not use them.
    public static let reservedKeys: Set<String> = ["t", "event"]

    public var time: Instant
    public var event: String
    public var fields: [String: JSONValue]

    public init(time: Instant, event: String, fields: [String: JSONValue] = [:]) {
        self.time = time
        self.event = event
        self.fields = fields.filter { !Self.reservedKeys.contains($0.key) }
    }

    /// `{"t":1.024,"event":"discovery-result","service":"_drone-service._udp"}`
    public var json: String {
        let members =
            [("event", JSONValue.string(event))] + fields.keys.sorted().map { ($0, fields[$0, default: .null]) }
        // `t` goes first, spelled as an exact decimal rather than through Double.
        return "{\"t\":" + Self.seconds(time) + "," + JSONValue.object(members).serialized.dropFirst()
    }

    /// Exact decimal seconds from nanoseconds, trailing zeros dropped: 0, 1.5, 0.524288.
    static func seconds(_ time: Instant) -> String {
        let whole = time.nanoseconds / 1_000_000_000
        let fraction = time.nanoseconds % 1_000_000_000
        guard fraction > 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

import AwareCore
import AwareWire

/// The passive analyzer: capture frames in, findings out. No I/O, no clock: the same frames
/// always give the same report.
public struct CaptureAnalyzer: Sendable {
    public var rules: [any AnalysisRule]
    public var profile: AnalysisProfile

    public init(profile: AnalysisProfile = AnalysisProfile(), rules: [any AnalysisRule] = AnalysisCatalogue.rules) {
        self.profile = profile
        self.rules = rules
    }

    /// Analyzes the records of a capture file, numbering frames from 1.
    public func analyze(records: [CaptureRecord]) -> AnalysisReport {
        var analysis = CaptureAnalysis(self)
        for record in records { analysis.learn(record) }
        for record in records { analysis.judge(record) }
        return analysis.report()
    }

    public func analyze(frames: [CaptureFrame]) -> AnalysisReport {
        var analysis = CaptureAnalysis(self)
        for frame in frames { analysis.learn(frame) }
        for frame in frames { analysis.judge(frame) }
        return analysis.report()
    }
}

/// One capture analyzed in two passes over its frames, as `tshark -2` does, so that a capture
/// file of any size can be read record by record twice instead of held: the first pass
/// (``learn(_:)-(CaptureRecord)``) learns what the whole capture shows (``AnalysisContext``,
/// and what each rule needs), the second (``judge(_:)-(CaptureRecord)``) judges every frame
/// with it, in the same order. Both passes must see the same frames.
///
/// Neither pass keeps a frame. What remains grows with what the capture shows rather than with
/// its octets: the NAN beacons (one clock reference each), the unicast data frames (a frame
/// number and a time each, for the burst rule), the devices, pairings and streams, and the
/// findings.
public struct CaptureAnalysis: Sendable {
    private var rules: [any AnalysisRule]
    private var context: AnalysisContext
    private let ruleOrder: [String: Int]
    private var learning = RetransmissionTracker()
    private var judging = RetransmissionTracker()
    private var isJudging = false
    /// Frames taken in by each pass.
    public private(set) var learnedFrameCount = 0
    public private(set) var judgedFrameCount = 0
    private var nanFrameCount = 0
    private var skippedFrameCount = 0
    /// Each finding with its rule's place in the catalogue and the order it was found in.
    private var findings: [(finding: AnalysisFinding, rule: Int, order: Int)] = []

    public init(_ analyzer: CaptureAnalyzer) {
        rules = analyzer.rules
        context = AnalysisContext(profile: analyzer.profile)
        ruleOrder = Dictionary(analyzer.rules.enumerated().map { ($0.element.id, $0.offset) }) { first, _ in first }
    }

    /// First pass: the next record of the capture, numbered from 1.
    public mutating func learn(_ record: CaptureRecord) {
        learn(CaptureFrame(number: learnedFrameCount + 1, record: record))
    }

    /// First pass: the next frame of the capture.
    public mutating func learn(_ frame: CaptureFrame) {
        precondition(!isJudging, "the first pass ends with the first frame judged")
        var frame = frame
        learning.mark(&frame)
        learnedFrameCount += 1
        context.learn(from: frame)
        for index in rules.indices { rules[index].learn(from: frame) }
    }

    /// Second pass: the next record, numbered from 1 again.
    public mutating func judge(_ record: CaptureRecord) {
        judge(CaptureFrame(number: judgedFrameCount + 1, record: record))
    }

    /// Second pass: the next frame; the first call ends the first pass.
    public mutating func judge(_ frame: CaptureFrame) {
        if !isJudging {
            isJudging = true
            context.finishLearning()
        }
        var frame = frame
        judging.mark(&frame)
        judgedFrameCount += 1
        if frame.management?.body.isNAN == true { nanFrameCount += 1 }
        if frame.condition != .whole { skippedFrameCount += 1 }
        for index in rules.indices {
            for finding in rules[index].findings(on: frame, in: context) {
                keep(finding, rule: index, transmitter: finding.frame == frame.number ? frame.rawTransmitter : nil)
            }
        }
    }

    /// After the second pass: the report, findings by frame, then by the catalogue's rule order.
    public mutating func report() -> AnalysisReport {
        if !isJudging {
            isJudging = true
            context.finishLearning()
        }
        for index in rules.indices {
            for (finding, transmitter) in rules[index].findingsAtEnd(in: context) {
                keep(finding, rule: index, transmitter: transmitter)
            }
        }
        let ordered = findings.sorted { a, b in
            let frameA = a.finding.frame ?? 0
            let frameB = b.finding.frame ?? 0
            if frameA != frameB { return frameA < frameB }
            if a.rule != b.rule { return a.rule < b.rule }
            return a.order < b.order
        }
        return AnalysisReport(
            frameCount: judgedFrameCount,
            nanFrameCount: nanFrameCount,
            skippedFrameCount: skippedFrameCount,
            pairingCount: context.pairings.pairings.count,
            rules: rules.map { AnalysisReport.RuleSummary(id: $0.id, title: $0.title, source: $0.source) },
            findings: ordered.map(\.finding)
        )
    }

    /// Keeps a finding, unless `--device` names devices and the finding's frame was sent by
    /// none of them (a sniffer also hears the phone and the neighbours).
    private mutating func keep(_ finding: AnalysisFinding, rule index: Int, transmitter: MACAddress?) {
        if !context.profile.devices.isEmpty, let transmitter, !context.deviceAddresses.contains(transmitter) {
            return
        }
        findings.append((finding, ruleOrder[rules[index].id] ?? index, findings.count))
    }
}

/// What the analyzer may expect of the device under test, taken from an accessory profile
/// (or given on the command line): the service names it publishes (so that service IDs can be
/// checked against their hash), the TXT values the phone reads, and whether it offers pairing.
///
/// Every field is optional: without a profile the rules that need one check only what the
/// capture itself proves.
public struct AnalysisProfile: Hashable, Sendable {
    /// Service names whose IDs the device may publish (nan-wire-reference.md 2.4).
    public var serviceNames: [String]
    /// Expected `vendorName=`, `modelName=`, `pairingName=` values (apple-peer-model.md 1.6).
    public var vendorName: String?
    public var modelName: String?
    public var pairingName: String?
    /// The profile offers pairing: its publishes must advertise it (DCEA + NPBA).
    public var offersPairing: Bool?
    /// The device(s) under test, by NMI. When set, only findings on frames these addresses sent
    /// are reported: a sniffer also hears the phone and the neighbours.
    public var devices: Set<MACAddress>

    public init(
        serviceNames: [String] = [],
        vendorName: String? = nil,
        modelName: String? = nil,
        pairingName: String? = nil,
        offersPairing: Bool? = nil,
        devices: Set<MACAddress> = []
    ) {
        self.serviceNames = serviceNames
        self.vendorName = vendorName
        self.modelName = modelName
        self.pairingName = pairingName
        self.offersPairing = offersPairing
        self.devices = devices
    }

    /// The service ID of each known name: SHA-256 of the ASCII-lower-cased name, first 6 octets.
    public var serviceIDs: [(name: String, id: ServiceID)] {
        serviceNames.map { ($0, ServiceID(serviceName: $0)) }
    }

    /// The TXT values the profile names, in the order the phone reads them.
    public var expectedTXT: [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        if let vendorName { pairs.append(("vendorName", vendorName)) }
        if let modelName { pairs.append(("modelName", modelName)) }
        if let pairingName { pairs.append(("pairingName", pairingName)) }
        return pairs
    }
}

/// Why `aware-conform analyze` could not analyze its input at all (as opposed to findings in
/// it): each case names the file and, for malformed content, the octet offset.
public enum AnalysisInputError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchFile(path: String)
    case unreadable(path: String, reason: String)
    case notACapture(path: String, firstOctets: [UInt8])
    case malformedCapture(path: String, error: WireError)
    /// The file gave fewer records the second time it was read than the first (it was cut or
    /// replaced meanwhile): the analysis would not match the file.
    case changed(path: String, firstPass: Int, secondPass: Int)

    /// The same error of the capture file at `path`.
    public init(_ error: CaptureFileError, path: String) {
        switch error {
        case .unreadable(let reason): self = .unreadable(path: path, reason: reason)
        case .notACapture(let octets): self = .notACapture(path: path, firstOctets: octets)
        case .malformed(let error): self = .malformedCapture(path: path, error: error)
        }
    }

    /// Capture records from file octets; the path is only for the error.
    public static func records(
        of bytes: [UInt8],
        path: String
    ) throws(AnalysisInputError) -> (
        format: CaptureReader.Format, records: [CaptureRecord]
    ) {
        guard let format = CaptureReader.format(of: bytes) else {
            throw .notACapture(path: path, firstOctets: Array(bytes.prefix(4)))
        }
        do {
            return (format, try CaptureReader.read(bytes: bytes))
        } catch {
            throw .malformedCapture(path: path, error: error)
        }
    }

    /// The records a capture yields up to its first error, with that error: a capture cut short
    /// (a sniffer killed mid-write) still has frames worth analyzing. Throws when no record at all
    /// can be read.
    public static func availableRecords(
        of bytes: [UInt8],
        path: String
    ) throws(AnalysisInputError) -> (
        format: CaptureReader.Format, records: [CaptureRecord], stoppedBy: AnalysisInputError?
    ) {
        guard let format = CaptureReader.format(of: bytes) else {
            throw .notACapture(path: path, firstOctets: Array(bytes.prefix(4)))
        }
        let (records, error) = CaptureReader.readAvailable(bytes: bytes)
        if let error, records.isEmpty { throw .malformedCapture(path: path, error: error) }
        return (format, records, error.map { .malformedCapture(path: path, error: $0) })
    }

    public var description: String {
        switch self {
        case .noSuchFile(let path):
            "\(path): no such file"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .notACapture(let path, let octets):
            octets.isEmpty
                ? "\(path) at offset 0: not a pcap or pcapng capture (it is a directory or empty)"
                : "\(path) at offset 0: not a pcap or pcapng capture (it starts with \(HexString.encode(octets)))"
        case .malformedCapture(let path, let error):
            "\(path) at offset \(error.offset): malformed capture: \(error)"
        case .changed(let path, let first, let second):
            "\(path) changed while it was analyzed: it gave \(first) frames, then \(second) when read again"
        }
    }
}

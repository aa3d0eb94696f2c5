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
        analyze(frames: records.enumerated().map { CaptureFrame(number: $0.offset + 1, record: $0.element) })
    }

    public func analyze(frames: [CaptureFrame]) -> AnalysisReport {
        let context = AnalysisContext(frames: frames, profile: profile)
        var findings: [AnalysisFinding] = []
        for rule in rules { findings += rule.findings(in: context) }
        if !profile.devices.isEmpty {
            let device = context.addresses(of: profile.devices)
            let transmitters = Dictionary(uniqueKeysWithValues: frames.map { ($0.number, $0.rawTransmitter) })
            findings = findings.filter { finding in
                guard let frame = finding.frame, let transmitter = transmitters[frame] ?? nil else { return true }
                return device.contains(transmitter)
            }
        }
        // Stable order: by frame, then by the catalogue's rule order.
        let ruleOrder = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($0.element.id, $0.offset) })
        findings = findings.enumerated().sorted { a, b in
            let frameA = a.element.frame ?? 0
            let frameB = b.element.frame ?? 0
            if frameA != frameB { return frameA < frameB }
            let ruleA = ruleOrder[a.element.ruleID] ?? 0
            let ruleB = ruleOrder[b.element.ruleID] ?? 0
            if ruleA != ruleB { return ruleA < ruleB }
            return a.offset < b.offset
        }.map(\.element)
        return AnalysisReport(
            frameCount: frames.count,
            nanFrameCount: frames.count { $0.management?.body.isNAN == true },
            skippedFrameCount: frames.count { $0.condition != .whole },
            pairingCount: context.pairings.pairings.count,
            rules: rules.map { AnalysisReport.RuleSummary(id: $0.id, title: $0.title, source: $0.source) },
            findings: findings
        )
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
        }
    }
}

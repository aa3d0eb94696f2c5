import AwareAnalysis
import AwareCore
import AwareWire
import Foundation

/// The inline SVG of a capture as a sequence diagram: a lane per station, one arrow per frame,
/// top to bottom in capture order, each labelled with the frame's kind, its number and its time.
/// Drawn with lines and polygons only (no markers, no `url(...)`), so it needs nothing outside
/// the page (inline SVG in HTML needs no xmlns either).
struct SequenceDiagram {
    var sequence: FrameSequence
    /// The iteration's failed expectations, drawn as red lines between the frames they followed
    /// when the capture runs on the test's clock (on a wall-clock capture the times do not compare).
    var failures: [RecordedFailure] = []

    static let laneWidth = 190
    static let timeColumn = 96
    static let headerHeight = 48
    static let rowHeight = 22

    /// Times under this many nanoseconds are the test's own clock (virtual time from 0); later ones
    /// are wall-clock epochs, shown relative to the first frame.
    static let testClockLimit: UInt64 = 1_000_000 * 1_000_000_000

    func svg() -> String {
        let lanes = sequence.lanes
        let width = Self.timeColumn + max(lanes.count, 1) * Self.laneWidth
        let height = Self.headerHeight + (sequence.frames.count + 1) * Self.rowHeight
        let origin = sequence.frames.first.map { $0.timestamp < Self.testClockLimit ? 0 : $0.timestamp } ?? 0
        var out = """
            <svg class="sequence" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" role="img" aria-label="\(sequence.frames.count) frames between \
            \(lanes.count) lanes">
            """
        for (index, lane) in lanes.enumerated() {
            let x = center(index)
            let (role, address) = sequence.title(of: lane)
            out += "<g class=\"lane\">"
            out +=
                "<text class=\"lane-role\" x=\"\(x)\" y=\"18\" text-anchor=\"middle\">\(HTMLText.escape(role))</text>"
            out +=
                "<text class=\"lane-address\" x=\"\(x)\" y=\"34\" text-anchor=\"middle\">\(HTMLText.escape(address))</text>"
            out += "<line x1=\"\(x)\" y1=\"\(Self.headerHeight - 6)\" x2=\"\(x)\" y2=\"\(height)\"/></g>"
        }
        for (row, frame) in sequence.frames.enumerated() {
            out += arrow(frame, row: row, origin: origin)
        }
        if sequence.frames.first.map({ $0.timestamp < Self.testClockLimit }) == true {
            out += failureMarks(width: width)
        }
        return out + "</svg>"
    }

    /// One mark per distinct failure time, just below the last frame sent before it.
    func failureMarks(width: Int) -> String {
        var counts: [UInt64: Int] = [:]
        for failure in failures { counts[failure.time.nanoseconds, default: 0] += 1 }
        var out = ""
        for (time, count) in counts.sorted(by: { $0.key < $1.key }) {
            let row = sequence.frames.firstIndex { $0.timestamp > time } ?? sequence.frames.count
            let y = Self.headerHeight + row * Self.rowHeight + Self.rowHeight / 2
            let what = count == 1 ? "expectation failed" : "\(count) expectations failed"
            out += "<g class=\"failure-mark\"><line x1=\"0\" y1=\"\(y)\" x2=\"\(width)\" y2=\"\(y)\"/>"
            out += "<text x=\"\(width - 6)\" y=\"\(y - 3)\" text-anchor=\"end\">FAIL: \(what) at t = "
            out += "\(EventLine.seconds(Instant(nanoseconds: time))) s</text></g>"
        }
        return out
    }

    func center(_ lane: Int) -> Int { Self.timeColumn + lane * Self.laneWidth + Self.laneWidth / 2 }

    func arrow(_ frame: SequenceFrame, row: Int, origin: UInt64) -> String {
        let lanes = sequence.lanes
        let from = lanes.firstIndex(of: SequenceLane(frame.transmitter)) ?? 0
        let to = lanes.firstIndex(of: SequenceLane(frame.receiver)) ?? from
        let y = Self.headerHeight + (row + 1) * Self.rowHeight
        let seconds = Double(frame.timestamp &- origin) / 1e9
        let time = String(format: "%.6f s", seconds)
        let label = "#\(frame.number) \(frame.kind)"
        let category = FrameCategory(kind: frame.kind)
        var out = "<g class=\"arrow \(category.rawValue)\" data-frame=\"\(frame.number)\">"
        out += "<title>\(HTMLText.escape("frame \(frame.number) at \(time): \(frame.kind)"))</title>"
        out += "<text class=\"time\" x=\"4\" y=\"\(y + 4)\">\(time)</text>"
        let x1 = center(from)
        let x2 = center(to)
        if from == to {
            // A frame to itself (should not happen on the air, but a capture may hold one): a loop.
            out +=
                "<polyline fill=\"none\" stroke=\"\(category.colour)\" points=\"\(x1),\(y - 6) \(x1 + 24),\(y - 6) \(x1 + 24),\(y + 4) \(x1),\(y + 4)\"/>"
            out += "<text class=\"label\" x=\"\(x1 + 30)\" y=\"\(y)\">\(HTMLText.escape(label))</text>"
            return out + "</g>"
        }
        let direction = x2 > x1 ? 1 : -1
        let tip = x2 - direction * 2
        out += "<line x1=\"\(x1)\" y1=\"\(y)\" x2=\"\(tip)\" y2=\"\(y)\" stroke=\"\(category.colour)\"/>"
        out +=
            "<polygon fill=\"\(category.colour)\" points=\"\(tip),\(y) \(tip - direction * 9),\(y - 4) \(tip - direction * 9),\(y + 4)\"/>"
        out +=
            "<text class=\"label\" x=\"\((x1 + x2) / 2)\" y=\"\(y - 4)\" text-anchor=\"middle\">\(HTMLText.escape(label))</text>"
        return out + "</g>"
    }
}

/// The frames of one capture file, in order, with the stations that sent and received them: what
/// the sequence diagram of a failing test draws.
struct FrameSequence: Hashable, Sendable {
    var frames: [SequenceFrame]
    /// Lanes left to right: stations in the order they first appear, then group addresses, then
    /// frames without a transmitter.
    var lanes: [SequenceLane]
    var roles: [MACAddress: StationRole]

    init(records: [CaptureRecord]) {
        frames = records.enumerated().map { SequenceFrame(number: $0.offset + 1, record: $0.element) }
        var stations: [SequenceLane] = []
        var roles: [MACAddress: StationRole] = [:]
        for frame in frames {
            for lane in [SequenceLane(frame.transmitter), SequenceLane(frame.receiver)] {
                if case .station = lane, !stations.contains(lane) { stations.append(lane) }
            }
            if let transmitter = frame.transmitter, roles[transmitter] == nil,
                let role = StationRole(transmitterOf: frame.kind)
            {
                roles[transmitter] = role
            }
        }
        let used = Set(frames.flatMap { [SequenceLane($0.transmitter), SequenceLane($0.receiver)] })
        lanes = stations + [SequenceLane.group, .unknown].filter(used.contains)
        self.roles = roles
    }

    /// Reads the capture at `path` (resolved against `workingDirectory` when relative).
    static func load(path: String, workingDirectory: String) -> Result<FrameSequence, EvidenceProblem> {
        let resolved = EvidenceLinker.absolute(path, workingDirectory: workingDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failure(.missing(path: path))
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            return .failure(.unreadable(path: path, reason: "permission denied or an I/O error"))
        }
        let bytes = [UInt8](data)
        guard CaptureReader.format(of: bytes) != nil else { return .failure(.notACapture(path: path)) }
        do {
            return .success(FrameSequence(records: try CaptureReader.read(bytes: bytes)))
        } catch {
            return .failure(.malformedCapture(path: path, reason: "\(error)"))
        }
    }

    /// The lane's heading: the role when the frames showed one, and the address.
    func title(of lane: SequenceLane) -> (role: String, address: String) {
        switch lane {
        case .station(let address): (roles[address]?.label ?? StationRole.station.label, address.description)
        case .group: ("group addressed", "multicast / broadcast")
        case .unknown: ("no transmitter", "(ACK, CTS)")
        }
    }
}

/// One frame of a test's capture as the sequence diagram draws it: who sent it to whom, when, and
/// what it is in the protocol's words ("SDF Publish", "PASN Authentication 2", "NAF Schedule Request").
struct SequenceFrame: Hashable, Sendable {
    /// 1-based, as Wireshark numbers frames, so a person can find it with `tshark -r`.
    var number: Int
    /// Nanoseconds as the capture stamped them.
    var timestamp: UInt64
    /// Address 2; nil for frames that carry only a receiver (ACK, CTS) or are too short.
    var transmitter: MACAddress?
    /// Address 1; nil when the frame is too short to hold it.
    var receiver: MACAddress?
    var kind: String

    init(number: Int, record: CaptureRecord) {
        self.number = number
        timestamp = record.timestamp
        let octets = record.frame
        // Every 802.11 frame type puts Address 1 at octet 4 and, when present, Address 2 at 10
        // (IEEE 802.11-2020 9.2.3): reading them here also covers data and control frames, which
        // AwareWire does not decode beyond Frame Control.
        receiver = octets.count >= 10 ? MACAddress(octets[4..<10]) : nil
        transmitter = octets.count >= 16 && Self.hasTransmitter(octets) ? MACAddress(octets[10..<16]) : nil
        let decoded = DecodedFrame(number: number, record: record, octets: octets)
        kind = Self.shortened(decoded.summary)
    }

    /// ACK and CTS (control subtypes 13 and 12) end after Address 1; their next octets are the FCS
    /// or nothing.
    static func hasTransmitter(_ octets: [UInt8]) -> Bool {
        let type = (octets[0] >> 2) & 0x3
        let subtype = octets[0] >> 4
        return !(type == 1 && (subtype == 12 || subtype == 13))
    }

    /// The diagram has little room: "Data (not NAN)" says "Data" there, the lanes say the rest.
    static func shortened(_ summary: String) -> String {
        summary.hasSuffix(" (not NAN)") ? String(summary.dropLast(" (not NAN)".count)) : summary
    }
}

/// A vertical line of the sequence diagram: one station address, or every group address at once
/// (NAN's SDFs and beacons go to the cluster's multicast address or to broadcast).
enum SequenceLane: Hashable, Sendable {
    case station(MACAddress)
    case group
    /// For a frame that names no transmitter (an ACK).
    case unknown

    init(_ address: MACAddress?) {
        guard let address else {
            self = .unknown
            return
        }
        self = address.isGroup ? .group : .station(address)
    }
}

/// What a station is in the test, read from what it sent: the publisher is the accessory, the
/// subscriber and PASN initiator the phone (docs/reference/architecture.md, "Data through the system").
enum StationRole: Hashable, Sendable {
    case phone
    case accessory
    case station

    var label: String {
        switch self {
        case .phone: "phone"
        case .accessory: "accessory"
        case .station: "station"
        }
    }

    /// The role a frame of `kind` shows its transmitter to have, if it shows one.
    init?(transmitterOf kind: String) {
        if kind.hasPrefix("SDF") && kind.contains("Publish") {
            self = .accessory
        } else if kind.hasPrefix("SDF") && kind.contains("Subscribe") {
            self = .phone
        } else if kind == "PASN Authentication 1" || kind == "PASN Authentication 3" {
            self = .phone
        } else if kind == "PASN Authentication 2" {
            self = .accessory
        } else {
            return nil
        }
    }
}

/// The family a frame belongs to, for the diagram's colours: beacons recede so the discovery,
/// pairing, schedule and data frames a failure is about stand out. The label names every frame in
/// words as well, so nothing depends on telling the colours apart.
enum FrameCategory: String, Hashable, Sendable, CaseIterable {
    case beacon
    case discovery
    case pairing
    case schedule
    case data
    case other

    init(kind: String) {
        if kind.hasPrefix("NAN") && kind.hasSuffix("Beacon") {
            self = .beacon
        } else if kind.hasPrefix("SDF") {
            self = .discovery
        } else if kind.hasPrefix("PASN") {
            self = .pairing
        } else if kind.hasPrefix("NAF") {
            self = .schedule
        } else if kind.hasPrefix("Data") || kind.hasPrefix("QoS Data") {
            self = .data
        } else {
            self = .other
        }
    }

    /// Stroke and fill of the arrow.
    var colour: String {
        switch self {
        case .beacon: "#9aa0a6"
        case .discovery: "#0b57d0"
        case .pairing: "#7b1fa2"
        case .schedule: "#a04f00"
        case .data: "#1e7b34"
        case .other: "#1b1b1b"
        }
    }
}

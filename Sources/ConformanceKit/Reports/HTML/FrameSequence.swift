import AwareCore
import AwareWire
import Foundation

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

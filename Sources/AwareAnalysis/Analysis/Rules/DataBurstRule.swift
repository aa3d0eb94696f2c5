import AwareCore
import AwareProtocol
import AwareWire
import Foundation

/// A data stream that reaches the air only in bursts one discovery-window period (512 TU) apart
/// is being held back for the discovery windows: the defect of esp-idf #19066 (a 50 packet/s
/// stream arriving as ~26 packets every ~515 ms). Each stream (transmitter -> receiver, QoS Data
/// with a body, retransmissions left out) of at least `minimumFrames` frames goes through the
/// bench's ``BurstDetector`` with the stream's own mean interval as its nominal interval; the
/// bulk schedule's bursts every 128 TU are not flagged.
public struct DataBurstRule: AnalysisRule {
    public let id = "WA/CAP/DATA-DW-01"
    public let title = "Data does not arrive in bursts every 512 TU (DW period)"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 1.4 (DW period 512 TU); esp-idf issue 19066; BurstDetector (issue 5)"
    public var minimumFrames = 12

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        struct Stream: Hashable {
            var transmitter: MACAddress
            var receiver: MACAddress
        }
        var streams: [Stream: [CaptureFrame]] = [:]
        var order: [Stream] = []
        for frame in context.judgedFrames {
            guard let data = frame.dataFrame, !data.body.isEmpty, !data.address1.isGroup else { continue }
            let stream = Stream(transmitter: data.address2, receiver: data.address1)
            if streams[stream] == nil { order.append(stream) }
            streams[stream, default: []].append(frame)
        }
        var found: [AnalysisFinding] = []
        for stream in order {
            guard let frames = streams[stream], frames.count >= minimumFrames,
                let first = frames.first, let last = frames.last, last.timestamp > first.timestamp
            else { continue }
            let nominal = Interval(nanoseconds: Int64((last.timestamp - first.timestamp) / UInt64(frames.count - 1)))
            let detector = BurstDetector(nominalInterval: nominal)
            let analysis = detector.analyze(frames.map { Instant(nanoseconds: $0.timestamp) })
            guard analysis.isDiscoveryWindowBursting else { continue }
            let threshold = UInt64(Double(nominal.nanoseconds) * detector.gapFactor)
            var starts = [first.number]
            for (previous, next) in zip(frames, frames.dropFirst())
            where next.timestamp - previous.timestamp > threshold {
                starts.append(next.number)
            }
            let period = analysis.meanBurstPeriod.map { String(format: "%.1f", $0.milliseconds) } ?? "?"
            found.append(
                finding(
                    first.number,
                    "QoS Data from \(stream.transmitter) to \(stream.receiver): \(frames.count) frames arrive in "
                        + "\(analysis.burstCount) bursts every \(period) ms (the 512 TU = 524.3 ms discovery-window "
                        + "period); bursts start at frames \(starts.prefix(8).map(String.init).joined(separator: ", "))"
                        + (starts.count > 8 ? ", ..." : "")
                )
            )
        }
        return found
    }
}

import AwareCore
import AwareProtocol
import AwareWire
import Foundation

/// In a synchronized cluster, multicast SDFs (publish, subscribe) go out inside discovery
/// windows: 16 TU starting whenever the cluster TSF is a multiple of 512 TU on channel 6, and
/// 128 TU later on channel 149 (nan-wire-reference.md 1.4). The analyzer places each SDF whose
/// A3 is a Cluster ID on that cluster's TSF through the nearest NAN beacon of the cluster; the
/// frame's channel (radiotap) picks the window, either window when the capture has no channel.
///
/// `grace` allows for where in the frame the capture time was taken (start or end of
/// reception) and for clock drift between beacons; an SDF heard further outside is a finding.
/// Unsynchronized discovery (USD, A3 = NAN Network ID) has no windows and is not judged.
public struct SDFDiscoveryWindowRule: AnalysisRule {
    public let id = "WA/CAP/SDF-DW-01"
    public let title = "Multicast SDFs of a cluster are sent in discovery windows"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 1.4 (DW 16 TU every 512 TU; 5 GHz DW at slot 8), 1.3 (Cluster ID in A3)"
    /// Microseconds of slack at either end of a window: one TU.
    public var grace: UInt64 = 1_024

    /// Multicast SDFs of clusters that have no beacon in the capture: the first, its sender
    /// and how many, per cluster.
    private var unplaced: [MACAddress: (first: Int, transmitter: MACAddress, count: Int)] = [:]

    public init() {}

    public mutating func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, frame.serviceDiscovery != nil,
            management.header.address1.isGroup, management.header.address3.isClusterID
        else { return [] }
        let period = UInt64(DiscoveryWindowTiming.period.nanoseconds / 1_000)
        let length = UInt64(DiscoveryWindowTiming.length.nanoseconds / 1_000)
        let offset5GHz = UInt64(DiscoveryWindowTiming.offset5GHz.nanoseconds / 1_000)
        let cluster = management.header.address3
        guard let (tsf, reference) = context.clock.tsf(of: frame, in: cluster) else {
            let seen = unplaced[cluster]
            unplaced[cluster] = (
                seen?.first ?? frame.number, seen?.transmitter ?? management.header.address2, (seen?.count ?? 0) + 1
            )
            return []
        }
        var offsets: [UInt64] = []
        if let frequency = frame.frequencyMHz {
            offsets = [frequency >= 4_900 ? offset5GHz : 0]
        } else {
            offsets = [0, offset5GHz]
        }
        // Position within the window's period, shifted so that the window starts at `grace`.
        let inWindow = offsets.contains { start in
            let position = (tsf &+ period &- start &+ grace) % period
            return position < length + 2 * grace
        }
        guard !inWindow else { return [] }
        let start = offsets.first ?? 0
        let position = (tsf &+ period &- start) % period
        let band = start == 0 ? "2.4 GHz" : "5 GHz"
        let either =
            frame.frequencyMHz == nil ? " (no channel in the capture; the 5 GHz window does not fit either)" : ""
        return [
            finding(
                frame.number,
                "\(AnalysisContext.describe(management)) was sent \(formatTU(position)) TU after the start of a "
                    + "\(band) discovery window of cluster \(cluster), which lasts 16 TU (TSF \(tsf) µs, placed by "
                    + "the beacon in frame \(reference.frame))\(either)"
            )
        ]
    }

    public mutating func findingsAtEnd(
        in context: AnalysisContext
    ) -> [(finding: AnalysisFinding, transmitter: MACAddress?)] {
        unplaced.sorted(by: { $0.value.first < $1.value.first }).map { cluster, seen in
            (
                finding(
                    seen.first,
                    "\(seen.count) multicast SDF(s) in cluster \(cluster) but no NAN beacon of that cluster in the "
                        + "capture: discovery-window alignment not checked",
                    severity: .info
                ),
                seen.transmitter
            )
        }
    }

    private func formatTU(_ microseconds: UInt64) -> String {
        let tenths = microseconds * 10 / 1_024
        return "\(tenths / 10).\(tenths % 10)"
    }
}

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

    private struct Stream: Hashable, Sendable {
        var transmitter: MACAddress
        var receiver: MACAddress
    }

    /// Each stream's frames (number and capture time: 16 octets a frame), in the order the
    /// streams first appeared.
    private var streams: [Stream: [(number: Int, timestamp: UInt64)]] = [:]
    private var order: [Stream] = []

    public init() {}

    public mutating func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let data = frame.dataFrame, !data.body.isEmpty, !data.address1.isGroup else { return [] }
        let stream = Stream(transmitter: data.address2, receiver: data.address1)
        if streams[stream] == nil { order.append(stream) }
        streams[stream, default: []].append((frame.number, frame.timestamp))
        return []
    }

    public mutating func findingsAtEnd(
        in context: AnalysisContext
    ) -> [(finding: AnalysisFinding, transmitter: MACAddress?)] {
        var found: [(finding: AnalysisFinding, transmitter: MACAddress?)] = []
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
                (
                    finding(
                        first.number,
                        "QoS Data from \(stream.transmitter) to \(stream.receiver): \(frames.count) frames arrive in "
                            + "\(analysis.burstCount) bursts every \(period) ms (the 512 TU = 524.3 ms discovery-window "
                            + "period); bursts start at frames \(starts.prefix(8).map(String.init).joined(separator: ", "))"
                            + (starts.count > 8 ? ", ..." : "")
                    ),
                    stream.transmitter
                )
            )
        }
        streams = [:]
        order = []
        return found
    }
}

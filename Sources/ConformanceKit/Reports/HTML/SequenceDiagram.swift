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

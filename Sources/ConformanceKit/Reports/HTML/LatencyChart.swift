import Foundation

/// One latency histogram as inline SVG: a bar per bucket, the bucket's bound under it and its count
/// above it, so the numbers read without the bars and the bars without colour.
struct LatencyChart {
    var histogram: LatencyHistogram

    static let barWidth = 44
    static let plotHeight = 120
    static let left = 8
    static let top = 22

    var title: String {
        let measure =
            switch histogram.measure {
            case .oneWay: "one-way latency of the accessory's datagrams"
            case .transmit: "the phone's transmit latency (queued to acknowledged)"
            }
        return "\(histogram.accessCategory.rawValue): \(measure); \(histogram.samples) samples, p50 "
            + "\(Self.milliseconds(histogram.p50Milliseconds)), p99 \(Self.milliseconds(histogram.p99Milliseconds)), "
            + "max \(Self.milliseconds(histogram.maximumMilliseconds))"
    }

    func svg() -> String {
        let buckets = histogram.buckets
        let width = Self.left * 2 + buckets.count * Self.barWidth
        let height = Self.top + Self.plotHeight + 34
        let most = max(buckets.map(\.count).max() ?? 0, 1)
        let baseline = Self.top + Self.plotHeight
        var out = "<svg class=\"histogram\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
        out += "role=\"img\" aria-label=\"\(HTMLText.escape(title))\">"
        out += "<line x1=\"\(Self.left)\" y1=\"\(baseline)\" x2=\"\(width - Self.left)\" y2=\"\(baseline)\"/>"
        var lower = "0"
        for (index, bucket) in buckets.enumerated() {
            let x = Self.left + index * Self.barWidth
            let barHeight = bucket.count == 0 ? 0 : max(1, bucket.count * Self.plotHeight / most)
            let bound = bucket.upToMilliseconds.map(Self.number) ?? ">" + lower
            out += "<g class=\"bucket\" data-count=\"\(bucket.count)\">"
            out +=
                "<title>\(HTMLText.escape(bucket.upToMilliseconds == nil ? "above \(lower) ms" : "\(lower) to \(bound) ms")): "
            out += "\(bucket.count)</title>"
            out += "<rect class=\"bar\" x=\"\(x + 4)\" y=\"\(baseline - barHeight)\" width=\"\(Self.barWidth - 8)\" "
            out += "height=\"\(barHeight)\"/>"
            out += "<text x=\"\(x + Self.barWidth / 2)\" y=\"\(baseline - barHeight - 4)\" text-anchor=\"middle\">"
            out += "\(bucket.count)</text>"
            out += "<text x=\"\(x + Self.barWidth / 2)\" y=\"\(baseline + 14)\" text-anchor=\"middle\">"
            out += "\(HTMLText.escape(bucket.upToMilliseconds == nil ? bound : "≤" + bound))</text></g>"
            if let upper = bucket.upToMilliseconds { lower = Self.number(upper) }
        }
        out += "<text x=\"\(width / 2)\" y=\"\(height - 4)\" text-anchor=\"middle\">milliseconds</text>"
        return out + "</svg>"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }

    static func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value) }
}

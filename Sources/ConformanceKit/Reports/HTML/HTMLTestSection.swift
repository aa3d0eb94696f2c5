import Foundation

/// One test on the page: its verdict as a word and a colour, the message or skip reason, the
/// command that reruns it, each iteration as a step (verdict, failed expectations with their time
/// and place, evidence links) and, for a failing test, the sequence diagram of its capture.
struct HTMLTestSection {
    var test: TestResult
    var linker: EvidenceLinker

    /// Diagrams longer than this start folded, so a long performance capture does not bury the
    /// next failure.
    static let foldedAbove = 300

    func html() -> String {
        let verdict = test.verdict
        let classes = "test \(verdict.rawValue)" + (verdict.isFailing ? " failing" : "")
        var out = "<section class=\"\(classes)\" id=\"\(HTMLText.anchor(test.id))\" "
        out += "data-id=\"\(HTMLText.escape(test.id.description))\" data-verdict=\"\(verdict.rawValue)\">\n"
        out += "<h3><span class=\"verdict \(verdict.rawValue)\">\(verdict.label)</span>"
        out += "<code>\(HTMLText.escape(test.id.description))</code> \(HTMLText.escape(test.title))</h3>\n"
        if let message = test.message {
            let kind = verdict == .skip ? "reason" : "message"
            let label = verdict == .skip ? "Skipped: " : ""
            out += "<p class=\"\(kind)\">\(HTMLText.escape(label + message))</p>\n"
        }
        if let origin = test.errorOrigin {
            out += "<p class=\"reason\">Error origin: \(origin.rawValue)"
            out += origin == .environment ? " (the bench broke; the accessory was not judged)" : " (a bug in the test)"
            out += "</p>\n"
        }
        if let rerun = test.rerunCommand {
            out += "<p>Rerun this test alone:</p>\n<pre class=\"cmd\"><code>\(HTMLText.escape(rerun))</code></pre>\n"
        }
        if !test.iterations.isEmpty {
            out += verdict.isFailing ? "" : "<details><summary>Steps</summary>\n"
            out += steps()
            out += verdict.isFailing ? "" : "</details>\n"
        }
        out += latency()
        if verdict.isFailing { out += diagram() }
        return out + "</section>\n"
    }

    func steps() -> String {
        var out = "<ol class=\"steps\">\n"
        for iteration in test.iterations {
            out += "<li><span class=\"verdict \(iteration.verdict.rawValue)\">\(iteration.verdict.label)</span>"
            out += "Iteration \(iteration.iteration), seed \(iteration.seed) (base seed \(iteration.baseSeed)), "
            out += String(format: "%.3f s wall", iteration.wallSeconds)
            if let virtual = iteration.virtualSeconds { out += String(format: ", %.3f s virtual", virtual) }
            if let message = iteration.message {
                out += "<br/>\(HTMLText.escape((iteration.verdict == .skip ? "Skipped: " : "") + message))"
            }
            if !iteration.failures.isEmpty {
                out += "<ul class=\"failures\">\n"
                for failure in iteration.failures {
                    out += "<li>t = \(EventLine.seconds(failure.time)) s, <code>\(HTMLText.escape(failure.location))"
                    out += "</code>: \(HTMLText.escape(failure.message))</li>\n"
                }
                out += "</ul>"
            }
            if let evidence = iteration.evidence {
                out += "<br/>Evidence: " + links(evidence)
            }
            out += "</li>\n"
        }
        return out + "</ol>\n"
    }

    func links(_ evidence: EvidenceFiles) -> String {
        let files = [evidence.events, evidence.capture] + evidence.attachments
        var parts = ["<a class=\"evidence\" href=\"\(HTMLText.escape(linker.href(evidence.directory)))\">directory</a>"]
        for file in files {
            let name = (file as NSString).lastPathComponent
            parts.append(
                "<a class=\"evidence\" href=\"\(HTMLText.escape(linker.href(file)))\">\(HTMLText.escape(name))</a>"
            )
        }
        return parts.joined(separator: " · ")
    }

    /// The histograms of the first iteration that recorded any (a performance test's).
    func latency() -> String {
        guard let iteration = test.iterations.first(where: { !$0.latency.isEmpty }) else { return "" }
        var out = "<div class=\"latency\"><p>Latency per access category, iteration \(iteration.iteration):</p>\n"
        for histogram in iteration.latency {
            let chart = LatencyChart(histogram: histogram)
            out += "<figure class=\"histogram\" data-access-category=\"\(histogram.accessCategory.rawValue)\" "
            out += "data-measure=\"\(histogram.measure.rawValue)\"><figcaption>\(HTMLText.escape(chart.title))"
            out += "</figcaption>\n\(chart.svg())\n</figure>\n"
        }
        return out + "</div>\n"
    }

    /// The frames of the first failing iteration that kept evidence.
    func diagram() -> String {
        let failing = test.iterations.first { $0.verdict.isFailing && $0.evidence != nil }
        guard let iteration = failing, let evidence = iteration.evidence else {
            return "<p class=\"missing sequence\">\(HTMLText.escape(EvidenceProblem.notKept.description)): no "
                + "sequence diagram.</p>\n"
        }
        switch FrameSequence.load(path: evidence.capture, workingDirectory: linker.workingDirectory) {
        case .failure(let problem):
            return "<p class=\"missing sequence\">\(HTMLText.escape(problem.description)): no sequence diagram.</p>\n"
        case .success(let sequence):
            let count = sequence.frames.count
            let caption =
                "Frames of iteration \(iteration.iteration) (\(count) frame\(count == 1 ? "" : "s")) from "
            var out = count > Self.foldedAbove ? "<details><summary>Sequence diagram</summary>\n" : ""
            out += "<figure class=\"sequence\"><figcaption>\(HTMLText.escape(caption))"
            out += "<a class=\"evidence\" href=\"\(HTMLText.escape(linker.href(evidence.capture)))\">"
            out += "\(HTMLText.escape(evidence.capture))</a></figcaption>\n"
            out +=
                count == 0
                ? "<p class=\"muted\">The capture holds no frames: the test sent nothing.</p>"
                : SequenceDiagram(sequence: sequence, failures: iteration.failures).svg()
            out += "\n</figure>\n"
            return out + (count > Self.foldedAbove ? "</details>\n" : "")
        }
    }
}

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
            case .roundTrip: "echo round trip (the phone's request to the accessory's reply)"
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

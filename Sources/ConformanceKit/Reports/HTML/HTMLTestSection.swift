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

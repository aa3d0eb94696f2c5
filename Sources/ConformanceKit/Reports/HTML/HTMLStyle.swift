/// The page's only style sheet, inline. Colours mark verdicts, but every verdict is also written
/// as a word (PASS, FAIL, ...) and failing tests carry a thick left border, so the page reads the
/// same printed in black and white or by someone who does not tell red from green.
enum HTMLStyle {
    static let css = """
        :root { color-scheme: light; }
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0; \
        color: #1b1b1b; background: #fafafa; }
        header.run, main, nav.failing { max-width: 1200px; margin: 0 auto; padding: 12px 24px; }
        header.run { border-bottom: 6px solid #888; background: #fff; }
        header.run.failed { border-bottom-color: #b3261e; }
        header.run.passed { border-bottom-color: #1e7b34; }
        h1 { font-size: 26px; margin: 8px 0; }
        h2 { font-size: 20px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; }
        h3 { font-size: 16px; margin: 0; }
        code, pre { font: 13px/1.4 "DejaVu Sans Mono", ui-monospace, monospace; }
        table.counts { border-collapse: collapse; margin: 8px 0; }
        table.counts td, table.counts th { border: 1px solid #ccc; padding: 4px 12px; text-align: center; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
        dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
        pre.cmd { background: #10151c; color: #e8f0f8; padding: 8px 12px; border-radius: 4px; \
        white-space: pre-wrap; word-break: break-all; user-select: all; }
        .verdict { display: inline-block; min-width: 5.5em; text-align: center; font-weight: 700; \
        border-radius: 3px; padding: 0 6px; margin-right: 8px; border: 2px solid; }
        .verdict.pass { color: #1e7b34; } .verdict.fail { color: #b3261e; }
        .verdict.skip { color: #5f6368; } .verdict.error { color: #7b1fa2; } .verdict.timeout { color: #a04f00; }
        section.test { background: #fff; border: 1px solid #ddd; border-left: 4px solid #bbb; margin: 3px 0; \
        padding: 3px 10px; }
        section.test h3 { display: inline; font-size: 14px; } section.test.failing h3 { font-size: 16px; }
        section.test details { display: inline-block; margin-left: 12px; font-size: 13px; }
        section.test details[open] { display: block; margin: 4px 0 0; }
        section.test.failing details { display: block; margin: 8px 0 0; }
        section.test.failing { border-left: 10px solid #b3261e; padding: 12px 16px; margin: 12px 0; }
        section.test.pass { border-left-color: #1e7b34; } section.test.skip { border-left-color: #9aa0a6; }
        section.test.error { border-left-color: #7b1fa2; } section.test.timeout { border-left-color: #a04f00; }
        p.message { font-weight: 600; white-space: pre-wrap; margin: 6px 0; }
        p.reason { color: #444; margin: 4px 0; }
        ol.steps > li { margin: 4px 0; }
        ul.failures { margin: 2px 0; } ul.failures li { white-space: pre-wrap; }
        .missing { border: 2px dashed #b3261e; padding: 6px 10px; background: #fff4f2; }
        .missing::before { content: "MISSING: "; font-weight: 700; }
        .muted { color: #666; }
        nav.failing ul { columns: 2; margin: 4px 0; }
        nav.failing a, a { color: #0b57d0; }
        figure { margin: 8px 0; overflow-x: auto; }
        figcaption { font-size: 13px; color: #444; margin-bottom: 4px; }
        svg.sequence { background: #fff; border: 1px solid #ddd; font: 12px "DejaVu Sans", sans-serif; }
        svg.sequence .lane line { stroke: #9aa0a6; stroke-dasharray: 4 4; }
        svg.sequence .lane-role { font-weight: 700; }
        svg.sequence .lane-address, svg.sequence .time { fill: #555; font: 11px "DejaVu Sans Mono", monospace; }
        svg.sequence .arrow line, svg.sequence .arrow polyline { stroke-width: 1.4; }
        svg.sequence .arrow.beacon .label { fill: #777; }
        svg.sequence .arrow.pairing .label, svg.sequence .arrow.schedule .label { font-weight: 700; }
        svg.sequence .failure-mark line { stroke: #b3261e; stroke-width: 2; stroke-dasharray: 6 3; }
        svg.sequence .failure-mark text { fill: #b3261e; font-weight: 700; }
        div.latency figure { display: inline-block; vertical-align: top; margin: 4px 16px 4px 0; }
        div.latency figcaption { max-width: 640px; }
        svg.histogram { background: #fff; border: 1px solid #ddd; font: 11px "DejaVu Sans", sans-serif; }
        svg.histogram rect.bar { fill: #0b57d0; }
        svg.histogram line { stroke: #555; }
        """
}

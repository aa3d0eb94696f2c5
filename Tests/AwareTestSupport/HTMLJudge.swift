import Foundation

/// Judges an HTML report with Python's own parsers, independent of the Swift that wrote it:
/// `xml.etree` for well-formedness (the page is XHTML-compatible on purpose), `html.parser` for
/// what a browser would see: sections, verdict words, arrows, links, text.
public enum HTMLJudge {
    /// What the parsers found.
    public struct Findings: Sendable {
        public struct Section: Sendable, Equatable {
            public var id: String
            public var verdict: String
            /// The verdict word shown in the section's heading.
            public var label: String
            /// `<g class="arrow ...">` elements inside the section's SVG.
            public var arrows: Int
            /// Elements marked missing (class `missing`) inside the section.
            public var missing: Int
            /// Per `<figure class="histogram">`: its access category, measure and the `data-count`
            /// of each `<g class="bucket">` in order.
            public var histograms: [Histogram]
        }

        public struct Histogram: Sendable, Equatable {
            public var accessCategory: String
            public var measure: String
            public var counts: [Int]

            public init(accessCategory: String, measure: String, counts: [Int]) {
                self.accessCategory = accessCategory
                self.measure = measure
                self.counts = counts
            }
        }

        public var sections: [Section]
        /// Every `href`/`src`-like attribute value on the page.
        public var links: [String]
        /// Elements that load or run something (script, img, link, iframe, object, embed, ...).
        public var activeElements: [String]
        /// `on*` event-handler attributes.
        public var handlers: [String]
        /// `url(` or `@import` inside style sheets or style attributes.
        public var styleReferences: [String]
        /// All text content (element text, not markup), for looking for escaped strings.
        public var text: String
    }

    static let script = #"""
        import json, sys, re
        import xml.etree.ElementTree as ET
        from html.parser import HTMLParser
        path = sys.argv[1]
        source = open(path, encoding="utf-8").read()
        ET.fromstring(re.sub(r"^<!DOCTYPE html>", "", source))  # raises if not well-formed
        ACTIVE = {"script", "img", "link", "iframe", "object", "embed", "video", "audio", "source", "frame",
                  "base", "form", "input", "meta-refresh"}
        LINKS = {"href", "src", "xlink:href", "action", "formaction", "poster", "data", "srcset", "background"}
        class Judge(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.sections = []; self.stack = []; self.links = []; self.active = []; self.handlers = []
                self.styles = []; self.text = []; self.in_style = False; self.label_open = False
            def handle_starttag(self, tag, attrs):
                a = dict(attrs); classes = (a.get("class") or "").split()
                self.stack.append(tag)
                if tag in ACTIVE: self.active.append(tag)
                if tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh": self.active.append("meta-refresh")
                for name, value in attrs:
                    if name in LINKS: self.links.append(value or "")
                    if name.startswith("on"): self.handlers.append(name)
                    if name == "style" and value and re.search(r"url\(|@import", value): self.styles.append(value)
                if tag == "style": self.in_style = True
                if tag == "section" and "test" in classes:
                    self.sections.append({"id": a.get("data-id"), "verdict": a.get("data-verdict"), "label": "",
                                          "arrows": 0, "missing": 0, "histograms": [],
                                          "depth": len(self.stack)})
                current = self.sections[-1] if self.sections and self.sections[-1]["depth"] > 0 else None
                if current is not None:
                    if tag == "g" and "arrow" in classes: current["arrows"] += 1
                    if "missing" in classes: current["missing"] += 1
                    if tag == "figure" and "histogram" in classes:
                        current["histograms"].append({"accessCategory": a.get("data-access-category"),
                                                      "measure": a.get("data-measure"), "counts": []})
                    if tag == "g" and "bucket" in classes and current["histograms"]:
                        current["histograms"][-1]["counts"].append(int(a.get("data-count")))
                    if tag == "span" and "verdict" in classes and current["label"] == "": self.label_open = True
            def handle_startendtag(self, tag, attrs):
                self.handle_starttag(tag, attrs); self.handle_endtag(tag)
            def handle_endtag(self, tag):
                if tag == "style": self.in_style = False
                if tag == "span": self.label_open = False
                if self.sections and self.sections[-1]["depth"] == len(self.stack) and tag == "section":
                    self.sections[-1]["depth"] = 0
                if self.stack: self.stack.pop()
            def handle_data(self, data):
                if self.in_style:
                    if re.search(r"url\(|@import", data): self.styles.append(data.strip()[:80])
                    return
                self.text.append(data)
                if self.label_open and self.sections: self.sections[-1]["label"] += data
        judge = Judge(); judge.feed(source); judge.close()
        for s in judge.sections: del s["depth"]
        print(json.dumps({"sections": judge.sections, "links": judge.links, "active": judge.active,
                          "handlers": judge.handlers, "styles": judge.styles, "text": "".join(judge.text)}))
        """#

    public static func judge(_ path: String) throws -> Findings {
        let outcome = try ExternalTool.run(["/usr/bin/python3", "-c", script, path])
        guard outcome.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
        else {
            throw Rejected(reason: outcome.errors.isEmpty ? outcome.output : outcome.errors)
        }
        let sections = (object["sections"] as? [[String: Any]] ?? []).map { section in
            Findings.Section(
                id: section["id"] as? String ?? "",
                verdict: section["verdict"] as? String ?? "",
                label: section["label"] as? String ?? "",
                arrows: section["arrows"] as? Int ?? -1,
                missing: section["missing"] as? Int ?? -1,
                histograms: (section["histograms"] as? [[String: Any]] ?? []).map { histogram in
                    Findings.Histogram(
                        accessCategory: histogram["accessCategory"] as? String ?? "",
                        measure: histogram["measure"] as? String ?? "",
                        counts: histogram["counts"] as? [Int] ?? []
                    )
                }
            )
        }
        return Findings(
            sections: sections,
            links: object["links"] as? [String] ?? [],
            activeElements: object["active"] as? [String] ?? [],
            handlers: object["handlers"] as? [String] ?? [],
            styleReferences: object["styles"] as? [String] ?? [],
            text: object["text"] as? String ?? ""
        )
    }

    /// The page is not well-formed, or the judge could not read it.
    public struct Rejected: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "the HTML judge rejected the page: \(reason)" }
    }

    /// Frames in a capture as tshark counts them: one line of `tshark -r FILE` per frame.
    public static func tsharkFrameCount(_ capture: String) throws -> Int {
        let outcome = try ExternalTool.tshark(["-r", capture])
        guard outcome.status == 0 else { throw Rejected(reason: "tshark -r \(capture): \(outcome.errors)") }
        return outcome.output.split(separator: "\n", omittingEmptySubsequences: true).count
    }

    /// A link that leaves the page's directory tree for the network: a scheme (`http:`, `data:`,
    /// `javascript:`) or a protocol-relative `//host`. Fragments (`#...`) and relative paths are fine.
    public static func isExternal(_ link: String) -> Bool {
        let trimmed = link.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("//") || trimmed.hasPrefix("/") { return true }
        guard let colon = trimmed.firstIndex(of: ":") else { return false }
        let scheme = trimmed[..<colon]
        return !scheme.isEmpty && !scheme.contains("/")
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }
}

import Foundation
import Testing

@testable import ConformanceKit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// JUnit XML as CI servers take it: well-formed (Foundation's XMLParser), and within the rules of the
/// schema Jenkins' xUnit plugin validates against (junit-10.xsd), restated here as data.
@Suite struct ReportJUnitTests {
    /// Element -> (allowed attributes, required attributes, allowed children).
    static let rules: [String: (allowed: Set<String>, required: Set<String>, children: Set<String>)] = [
        "testsuites": (["name", "time", "tests", "failures", "errors"], [], ["testsuite"]),
        "testsuite": (
            [
                "name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname", "id",
                "package", "file", "log", "url",
            ],
            ["name", "tests", "failures", "errors"],
            ["testsuite", "properties", "testcase", "system-out", "system-err"]
        ),
        "properties": ([], [], ["property"]),
        "property": (["name", "value"], ["name", "value"], []),
        "testcase": (
            ["name", "time", "classname", "group"], ["name"],
            ["skipped", "error", "failure", "system-out", "system-err"]
        ),
        "failure": (["type", "message"], [], []),
        "error": (["type", "message"], [], []),
        "skipped": (["type", "message"], [], []),
    ]

    /// A parsed element.
    final class Node {
        let name: String
        let attributes: [String: String]
        var children: [Node] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        func all(_ name: String) -> [Node] { (self.name == name ? [self] : []) + children.flatMap { $0.all(name) } }
    }

    final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Node] = []
        var root: Node?

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let node = Node(name: elementName, attributes: attributes)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }

    static func parse(_ xml: String) throws -> Node {
        let parser = XMLParser(data: Data(xml.utf8))
        let builder = TreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        try #require(ok, "not well-formed: \(String(describing: parser.parserError))")
        return try #require(builder.root)
    }

    static func checkSchemaRules(_ node: Node) {
        guard let rule = rules[node.name] else {
            Issue.record("element <\(node.name)> is not in the JUnit schema")
            return
        }
        let attributes = Set(node.attributes.keys)
        #expect(attributes.isSubset(of: rule.allowed), "<\(node.name)> has \(attributes.subtracting(rule.allowed))")
        #expect(rule.required.isSubset(of: attributes), "<\(node.name)> lacks \(rule.required.subtracting(attributes))")
        if let time = node.attributes["time"] {
            // SUREFIRE_TIME: digits, an optional fraction, no exponent or sign.
            #expect(time.range(of: #"^[0-9]+\.[0-9]{3}$"#, options: .regularExpression) != nil, "time \(time)")
        }
        for count in ["tests", "failures", "errors", "skipped"] {
            if let value = node.attributes[count] { #expect(Int(value) != nil, "\(count)=\(value)") }
        }
        for child in node.children {
            #expect(rule.children.contains(child.name), "<\(child.name)> inside <\(node.name)>")
            checkSchemaRules(child)
        }
        if node.name == "testcase" {
            // Jenkins counts a testcase once: at most one verdict element.
            #expect(node.children.count { ["failure", "error", "skipped"].contains($0.name) } <= 1)
        }
    }

    static func mixedRun() throws -> RunResult {
        var tests = Synthetic.mixedCatalogue().tests
        tests.append(
            Synthetic.test("WA/DISC/SD/BV-20", "Quotes \" & <tags> 'and' \u{1} control") { context in
                context.fail("expected <SDA> & \"SDEA\"\nsecond line\twith tab \u{1}")
            }
        )
        tests.append(Synthetic.test("WA/DISC/SD/BV-21", "Environment", Synthetic.breaksEnvironment))
        tests.append(
            Synthetic.test("WA/PAIR/BV-02", "Hangs", wallLimit: .milliseconds(100)) { _ in
                Thread.sleep(forTimeInterval: 0.5)
            }
        )
        return try TestRunner(catalogue: try TestCatalogue(tests), configuration: Synthetic.configuration()).run()
    }

    @Test func theXMLIsWellFormedAndWithinTheSchema() throws {
        let run = try Self.mixedRun()
        let xml = JUnitReport.render(run)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
        let root = try Self.parse(xml)
        #expect(root.name == "testsuites")
        Self.checkSchemaRules(root)
    }

    @Test func namesClassnamesCountsAndVerdictElements() throws {
        let run = try Self.mixedRun()
        let root = try Self.parse(JUnitReport.render(run))
        #expect(root.attributes["name"] == "aware-conform")
        #expect(root.attributes["tests"] == "9")
        #expect(root.attributes["failures"] == "3")
        #expect(root.attributes["errors"] == "2")
        let suites = root.all("testsuite")
        #expect(suites.map { $0.attributes["name"] } == ["WA/DISC", "WA/PAIR"])
        let disc = suites[0]
        #expect(disc.attributes["tests"] == "7")
        #expect(disc.attributes["failures"] == "2")
        #expect(disc.attributes["errors"] == "2")
        #expect(disc.attributes["skipped"] == "1")
        #expect(
            disc.attributes["timestamp"]?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#, options: .regularExpression)
                != nil
        )
        let properties = Dictionary(
            uniqueKeysWithValues: disc.all("property").map {
                ($0.attributes["name"] ?? "", $0.attributes["value"] ?? "")
            }
        )
        #expect(properties["seed"] == "42")
        #expect(properties["target"] == "embedded")
        #expect(properties["profile"] == "Profiles/drone.json")
        #expect(properties["iterations"] == "1")

        let cases = root.all("testcase")
        #expect(cases.map { $0.attributes["name"] ?? "" } == run.tests.map(\.id.description))
        #expect(cases.map { $0.attributes["classname"] ?? "" } == run.tests.map(\.group))
        func testcase(_ id: String) throws -> Node { try #require(cases.first { $0.attributes["name"] == id }) }

        #expect(try testcase("WA/DISC/SD/BV-01").children.isEmpty)
        let skipped = try testcase("WA/DISC/SD/BV-10").children
        #expect(skipped.map(\.name) == ["skipped"])
        #expect(skipped[0].attributes["message"] == "the profile publishes 1 service, the test needs at least 2")
        let failure = try testcase("WA/DISC/MF/BV-03").children[0]
        #expect(failure.name == "failure")
        #expect(failure.attributes["type"] == "fail")
        #expect(failure.attributes["message"] == "discovered services: expected 1, got 0")
        #expect(failure.text.contains("no Publish SDF within the budget"))
        #expect(
            failure.text.contains(
                "rerun: aware-conform run --profile Profiles/drone.json --target embedded --seed 42 --only WA/DISC/MF/BV-03 --iterations 1"
            )
        )
        #expect(failure.text.contains("evidence: "))
        let error = try testcase("WA/DISC/SD/BI-01").children[0]
        #expect(error.name == "error")
        #expect(error.attributes["type"] == "test")
        #expect(try testcase("WA/DISC/SD/BV-21").children[0].attributes["type"] == "environment")
        let timeout = try testcase("WA/PAIR/BV-02").children[0]
        #expect(timeout.name == "failure")
        #expect(timeout.attributes["type"] == "timeout")
    }

    @Test func everythingIsEscaped() throws {
        let run = try Self.mixedRun()
        let root = try Self.parse(JUnitReport.render(run))
        let failure = try #require(
            root.all("testcase").first { $0.attributes["name"] == "WA/DISC/SD/BV-20" }?.children.first
        )
        // Line breaks and tabs in attributes survive as character references; XML 1.0 cannot carry U+0001.
        #expect(failure.attributes["message"] == "expected <SDA> & \"SDEA\"\nsecond line\twith tab \\u{1}")
        #expect(failure.text.contains("expected <SDA> & \"SDEA\"\nsecond line\twith tab \\u{1}"))
        #expect(XMLText.attribute("a'b\"c<d>&\r") == "a&apos;b&quot;c&lt;d&gt;&amp;&#13;")
        #expect(XMLText.text("]]> & <x>") == "]]&gt; &amp; &lt;x&gt;")
        #expect(XMLText.text("\u{FFFE}\u{1F6F8}") == "\\u{fffe}\u{1F6F8}")
    }
}

/// The run as JUnit XML for CI servers (docs/reference/reports.md, "JUnit XML"): one `<testsuite>` per group,
/// one `<testcase>` per test with `name` = the stable ID and `classname` = its group. Only elements and
/// attributes of the schema Jenkins' xUnit plugin validates against (junit-10.xsd), which GitLab and
/// GitHub reporters also read: fail and timeout are `<failure>` (type `fail` / `timeout`), error is
/// `<error>` (type = its origin, `test` or `environment`), skip is `<skipped message="reason"/>`.
public enum JUnitReport {
    public static func render(_ run: RunResult) -> String {
        let metadata = run.metadata
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += element(
            "testsuites",
            [
                ("name", "aware-conform"), ("tests", String(run.tests.count)),
                ("failures", String(run.count(.fail) + run.count(.timeout))), ("errors", String(run.count(.error))),
                ("time", ReportTime.junitSeconds(run.wallSeconds)),
            ]
        )
        xml += ">\n"
        for group in run.groups {
            let tests = run.tests.filter { $0.group == group }
            xml +=
                "  "
                + element(
                    "testsuite",
                    [
                        ("name", group), ("tests", String(tests.count)),
                        ("failures", String(tests.count { $0.verdict == .fail || $0.verdict == .timeout })),
                        ("errors", String(tests.count { $0.verdict == .error })),
                        ("skipped", String(tests.count { $0.verdict == .skip })),
                        ("time", ReportTime.junitSeconds(tests.reduce(0) { $0 + $1.wallSeconds })),
                        ("timestamp", ReportTime.junitTimestamp(metadata.startedAt)),
                    ]
                )
            xml += ">\n    <properties>\n"
            for (name, value) in properties(metadata) {
                xml += "      " + element("property", [("name", name), ("value", value)]) + "/>\n"
            }
            xml += "    </properties>\n"
            for test in tests { xml += testcase(test) }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    static func properties(_ metadata: RunMetadata) -> [(String, String)] {
        var properties = [
            ("seed", String(metadata.baseSeed)), ("target", metadata.target), ("profile", metadata.profilePath),
            ("phone", metadata.phone),
            ("tool-version", metadata.toolVersion), ("run-id", metadata.runID),
            ("iterations", String(metadata.iterations)),
        ]
        if let shard = metadata.shard { properties.append(("shard", shard.description)) }
        return properties
    }

    static func testcase(_ test: TestResult) -> String {
        let open =
            "    "
            + element(
                "testcase",
                [
                    ("name", test.id.description), ("classname", test.group),
                    ("time", ReportTime.junitSeconds(test.wallSeconds)),
                ]
            )
        switch test.verdict {
        case .pass:
            return open + "/>\n"
        case .skip:
            return open + ">\n      " + element("skipped", [("message", test.message ?? "skipped")]) + "/>\n"
                + "    </testcase>\n"
        case .fail, .timeout, .error:
            let name = test.verdict == .error ? "error" : "failure"
            let type = test.verdict == .error ? (test.errorOrigin ?? .test).rawValue : test.verdict.rawValue
            let body = ConsoleFormatter().details(test).joined(separator: "\n")
            return open + ">\n      "
                + element(name, [("message", test.message ?? test.verdict.rawValue), ("type", type)]) + ">"
                + XMLText.text(body) + "</\(name)>\n    </testcase>\n"
        }
    }

    /// `<name a="v" ...` without the closing `>` or `/>`.
    static func element(_ name: String, _ attributes: [(String, String)]) -> String {
        "<" + name + attributes.map { " \($0.0)=\"\(XMLText.attribute($0.1))\"" }.joined()
    }
}

/// Escaping for the JUnit XML (XML 1.0, section 2.4 and 3.3.3).
enum XMLText {
    /// Character data: `&`, `<` and `>` escaped, characters XML 1.0 cannot carry written as `\u{..}`.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// An attribute value in double quotes. Tabs and line breaks become character references, because
    /// a parser would otherwise normalise them to spaces (XML 1.0, 3.3.3).
    static func attribute(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// XML 1.0's Char production: tab, LF, CR, and U+0020 up, minus U+FFFE and U+FFFF.
    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        let value = scalar.value
        let allowed =
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || value >= 0x10000
        if allowed {
            out.unicodeScalars.append(scalar)
        } else {
            out += "\\u{" + String(value, radix: 16) + "}"
        }
    }
}

import AwareTestSupport
import Foundation
import Testing

@testable import AccessoryKit

/// The hand-written validator must not drift from Profiles/profile.schema.json: every fixture goes
/// through both it and Python's `jsonschema` (an independent implementation), and they must agree
/// on accept or reject.
///
/// The one allowed difference: fixtures marked `"semantic": true` in bad-expectations.json break a
/// rule JSON Schema cannot state (UTF-8 octet counts, uniqueness by a member, a fixed PIN's length
/// against `pin.length`, case-insensitive TXT keys, references to published services, duplicate
/// JSON keys). For exactly those the schema must accept and Swift must reject, which also proves
/// each semantic fixture breaks nothing else.
@Suite struct ProfileSchemaAgreementTests {
    /// Prints ACCEPT or REJECT per file; a file Python cannot parse as JSON is a REJECT.
    static let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            try:
                document = json.load(open(path, encoding="utf-8"))
            except ValueError:
                print("REJECT", path)
                continue
            print("ACCEPT" if validator.is_valid(document) else "REJECT", path)
        """

    @Test func swiftAndJSONSchemaAgreeOnEveryFixture() throws {
        guard let python = ExternalTool.pythonWithJSONSchema() else {
            Issue.record("no python3 with the jsonschema module; run ci/setup (installs python3-jsonschema)")
            return
        }
        let files = ProfileFixtures.good + ProfileFixtures.bad
        let result = try ExternalTool.run(
            python + ["-c", Self.script, ProfileFixtures.schema.path] + files.map(\.path)
        )
        try #require(result.status == 0, "the jsonschema script failed")
        var schemaAccepts: [String: Bool] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            schemaAccepts[String(parts[1])] = parts[0] == "ACCEPT"
        }
        try #require(schemaAccepts.count == files.count, "jsonschema judged \(schemaAccepts.count) of \(files.count)")
        var semanticCount = 0
        for url in files {
            let swiftAccepts = (try? ProfileLoader.load(path: url.path)) != nil
            let schemaAccept = schemaAccepts[url.path] ?? false
            let semantic = ProfileFixtures.expectations[url.lastPathComponent]?.semantic ?? false
            if semantic {
                semanticCount += 1
                #expect(
                    schemaAccept && !swiftAccepts,
                    "\(url.lastPathComponent) is semantic: schema must accept, Swift reject"
                )
            } else {
                #expect(
                    schemaAccept == swiftAccepts,
                    "\(url.lastPathComponent): jsonschema \(schemaAccept ? "accepts" : "rejects"), Swift \(swiftAccepts ? "accepts" : "rejects")"
                )
            }
        }
        #expect(semanticCount > 0)
    }
}

import AwareTestSupport
import Foundation
import Testing

@testable import AccessoryKit

/// Beyond the fixtures: Python derives seeded random mutants of every good profile (values
/// replaced by others of every JSON type, keys deleted or added), judges each with `jsonschema`,
/// and the Swift validator must agree. Where the schema accepts and Swift rejects, every issue
/// Swift reports must be one of the semantic rules the schema cannot state.
@Suite struct ProfileSchemaMutationTests {
    static let script = """
        import copy, json, os, random, sys
        import jsonschema
        schema_path, out_dir, seed, per_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        validator = jsonschema.Draft202012Validator(json.load(open(schema_path, encoding="utf-8")))
        random.seed(seed)
        pool = [None, True, False, 0, -1, 1, 1.5, 6, 149, 255, 256, 65536, 1e300, "", "x", "_a._tcp", "_b-c._udp",
                "_x_y._tcp", "*", "hex", "\\\\", "a:\\\\", "hex:zz", "a::b", [], {}, ["pinDisplay"],
                ["pinDisplay", "pinDisplay"], ["opportunistic"], ["NCS-PK-PASN-256"], "01:00:00:00:00:00",
                "02:00:00:00:00:01", "pinDisplay", "bulk", "realtime", "bestEffort", "both", "solicited",
                "Apple Inc.", "\\u00e9" * 40, "v" * 64, {"txt": {"a": "b"}}, {"text": "t"}, {"hex": "0"},
                {"bulk": {}}, {"npk": False}, {"npk": False, "nik": False}, [6], [149], "1234", "12345678",
                4, 8, 9, 48000]
        keys = ["extra", "instanceID", "pairing", "datapath", "fixed", "length", "nik", "default", "realtime",
                "VENDORNAME", "fw", "nmiSeed", "text"]
        def paths(node, prefix=()):
            yield prefix
            if isinstance(node, dict):
                for key, value in node.items():
                    yield from paths(value, prefix + (key,))
            elif isinstance(node, list):
                for index, value in enumerate(node):
                    yield from paths(value, prefix + (index,))
        def parent_of(node, path):
            for step in path[:-1]:
                node = node[step]
            return node
        count = 0
        for source in sys.argv[5:]:
            original = json.load(open(source, encoding="utf-8"))
            for _ in range(per_file):
                document = copy.deepcopy(original)
                for _ in range(random.choice([1, 2, 3])):
                    candidates = list(paths(document))[1:]
                    if not candidates:
                        break
                    path = random.choice(candidates)
                    parent = parent_of(document, path)
                    roll = random.random()
                    if roll < 0.2 and isinstance(parent, dict):
                        del parent[path[-1]]
                    elif roll < 0.3 and isinstance(parent, dict):
                        parent[random.choice(keys)] = copy.deepcopy(random.choice(pool))
                    else:
                        parent[path[-1]] = copy.deepcopy(random.choice(pool))
                target = os.path.join(out_dir, "m%05d.json" % count)
                count += 1
                with open(target, "w", encoding="utf-8") as handle:
                    json.dump(document, handle, ensure_ascii=False)
                print("ACCEPT" if validator.is_valid(document) else "REJECT", target)
        """

    /// Message fragments of the rules only the Swift validator checks (docs/reference/profile-reference.md,
    /// "Rules the schema cannot state").
    static let semanticFragments = [
        "octets in UTF-8", "is already used by", "is already published by", "digits but `length` is",
        "(TXT keys ignore case)", "TXT keys ignore case", "is not one of the services this profile publishes",
        "octets on the wire", "appears twice in this object",
    ]

    @Test func swiftAgreesWithJSONSchemaOnRandomMutants() throws {
        guard let python = ExternalTool.pythonWithJSONSchema() else {
            Issue.record("no python3 with the jsonschema module; run ci/setup (installs python3-jsonschema)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "profile-mutants-\(ProcessInfo.processInfo.processIdentifier)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ExternalTool.run(
            python + ["-c", Self.script, ProfileFixtures.schema.path, directory.path, "2026", "150"]
                + ProfileFixtures.good.map(\.path)
        )
        try #require(result.status == 0, "the mutation script failed")
        var judged = 0
        var accepted = 0
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            judged += 1
            let schemaAccepts = parts[0] == "ACCEPT"
            let path = String(parts[1])
            let issues: [ProfileIssue]
            do {
                _ = try ProfileLoader.load(path: path)
                issues = []
            } catch {
                issues = error.issues
            }
            let document = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if !schemaAccepts {
                #expect(!issues.isEmpty, "jsonschema rejects but Swift accepts: \(document)")
            } else {
                if issues.isEmpty { accepted += 1 }
                let unexplained = issues.filter { issue in
                    !Self.semanticFragments.contains { issue.message.contains($0) }
                }
                #expect(unexplained.isEmpty, "jsonschema accepts but Swift reports \(unexplained): \(document)")
            }
        }
        #expect(judged == ProfileFixtures.good.count * 150)
        #expect(accepted > 0)
    }
}

import Foundation

/// Where the profile fixtures live and what each bad one must produce.
enum ProfileFixtures {
    struct Expectation: Decodable, Sendable {
        /// The JSON path of the issue the fixture must produce.
        var path: String
        /// True for rules JSON Schema cannot state: the schema accepts the fixture, the Swift
        /// validator rejects it.
        var semantic: Bool
        /// A fragment the message must contain, when the fixture pins one.
        var message: String?
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let directory = root.appendingPathComponent("Fixtures/profiles")
    static let schema = root.appendingPathComponent("Profiles/profile.schema.json")

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Profiles/*.json except the schema, and every good fixture.
    static let good: [URL] =
        files(in: root.appendingPathComponent("Profiles")).filter { $0.lastPathComponent != "profile.schema.json" }
        + files(in: directory.appendingPathComponent("good"))

    static let bad: [URL] = files(in: directory.appendingPathComponent("bad"))

    static let expectations: [String: Expectation] = {
        let url = directory.appendingPathComponent("bad-expectations.json")
        guard let data = try? Data(contentsOf: url) else { return [:] }
        return (try? JSONDecoder().decode([String: Expectation].self, from: data)) ?? [:]
    }()
}

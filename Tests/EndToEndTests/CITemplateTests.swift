import Foundation
import Testing

/// The CI job templates in ci/templates run, here, the commands they give accessory makers: their
/// shard and merge steps are read out of the YAML (by Python's yaml, an independent reader),
/// with the matrix values filled in, and run in a folder laid out as the template expects (the
/// maker's repository with Profiles/, AwareBench cloned into awarebench/). The merged report
/// must hold every test of the unsharded run with the same verdicts, and every path the
/// templates upload must exist.
@Suite struct CITemplateTests {
    struct Shell {
        var directory: URL
        var environment: [String: String]

        func run(_ command: String) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = directory
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
    }

    /// The template as JSON, read by Python's yaml.
    static func template(_ name: String) throws -> [String: Any] {
        let path = CommandRunner.repository.appendingPathComponent("ci/templates/\(name)").path
        let shell = Shell(directory: CommandRunner.repository, environment: [:])
        // python3 on PATH, else Debian's (where ci/setup installs python3-yaml).
        let converted = try shell.run(
            "for p in python3 /usr/bin/python3; do $p -c 'import yaml' 2>/dev/null && exec $p -c "
                + "'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' '\(path)'; done; "
                + "echo 'no python3 with yaml'; exit 1"
        )
        try #require(converted.status == 0, "python3 with yaml (ci/setup installs python3-yaml): \(converted.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(converted.output.utf8)) as? [String: Any])
    }

    /// A maker's repository: Profiles/drone.json, and AwareBench at awarebench/ (this checkout).
    static func workspace() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-ci-\(UUID().uuidString.prefix(8))"
        )
        let profiles = directory.appendingPathComponent("Profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CommandRunner.repository.appendingPathComponent("Profiles/drone.json"),
            to: profiles.appendingPathComponent("drone.json")
        )
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("awarebench"),
            withDestinationURL: CommandRunner.repository
        )
        return directory
    }

    /// `[id: verdict]` of a JSON report.
    static func verdicts(_ path: URL) throws -> [String: String] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        let tests = try #require(document["tests"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: tests.map { ($0["id"] as? String ?? "", $0["verdict"] as? String ?? "") }
        )
    }

    /// How many tests of the report ran their body: those with an iteration.
    static func bodiesRun(_ path: URL) throws -> Int {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        let tests = try #require(document["tests"] as? [[String: Any]])
        return tests.count { !(($0["iterations"] as? [Any]) ?? []).isEmpty }
    }

    /// The drone's catalogue run in one job, the way the shards are (embedded target, seed 1).
    static func unsharded(in directory: URL) async throws -> [String: String] {
        let report = directory.appendingPathComponent("unsharded.json")
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/drone.json", "--json", report.path]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(800))")
        return try verdicts(report)
    }

    static func commands(in steps: [[String: Any]], containing word: String) -> [String] {
        steps.compactMap { $0["run"] as? String }.filter { $0.contains(word) }
    }

    @Test func theGitHubActionsTemplateRunsAndMerges() async throws {
        let template = try Self.template("github-actions.yml")
        let jobs = try #require(template["jobs"] as? [String: Any])
        let conformance = try #require(jobs["conformance"] as? [String: Any])
        let matrix = try #require((conformance["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
        let shards = try #require(matrix["shard"] as? [Int])
        let accessories = try #require(matrix["accessory"] as? [String])
        let environment = try #require(template["env"] as? [String: Any])
        #expect(environment["SHARDS"] as? Int == shards.count, "SHARDS matches the matrix")
        #expect(shards == Array(1...shards.count))
        let steps = try #require(conformance["steps"] as? [[String: Any]])
        let shardCommands = Self.commands(in: steps, containing: "ci/bench-shard")
        try #require(shardCommands.count == 1)
        let report = try #require(jobs["report"] as? [String: Any])
        let reportSteps = try #require(report["steps"] as? [[String: Any]])
        let mergeCommands = Self.commands(in: reportSteps, containing: "ci/bench-merge")
        try #require(mergeCommands.count == 1)

        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shell = Shell(
            directory: directory,
            environment: ["SHARDS": String(shards.count), "AWAREBENCH_BIN": CommandRunner.productsDirectory.path]
        )
        for accessory in accessories where accessory == "drone" {
            for shard in shards {
                let command = shardCommands[0].replacingOccurrences(of: "${{ matrix.accessory }}", with: accessory)
                    .replacingOccurrences(of: "${{ matrix.shard }}", with: String(shard))
                let outcome = try shell.run(command)
                #expect(outcome.status == 0, "\(command)\n\(outcome.output.suffix(800))")
            }
            // The upload and download paths agree, and hold what the template promises.
            let upload = try #require(
                steps.first { ($0["uses"] as? String)?.hasPrefix("actions/upload-artifact") == true }
            )
            let download = try #require(
                reportSteps.first { ($0["uses"] as? String)?.hasPrefix("actions/download-artifact") == true }
            )
            let uploaded = try #require((upload["with"] as? [String: Any])?["path"] as? String)
            #expect((download["with"] as? [String: Any])?["path"] as? String == uploaded)
            let command = mergeCommands[0].replacingOccurrences(of: "${{ matrix.accessory }}", with: accessory)
            let merged = try shell.run(command)
            #expect(merged.status == 0, "\(command)\n\(merged.output.suffix(800))")
            let mergedReport = directory.appendingPathComponent("merged/\(accessory)/report.json")
            let unsharded = try await Self.unsharded(in: directory)
            #expect(try Self.verdicts(mergedReport) == unsharded)
            for file in ["junit.xml", "report.html"] {
                #expect(
                    FileManager.default.fileExists(
                        atPath: directory.appendingPathComponent("merged/\(accessory)/\(file)").path
                    )
                )
            }
            // Every test whose body ran keeps its capture (one that skips itself once it has seen
            // the air keeps its empty one); those a requirement or the target skipped have none.
            let testCount = try Self.bodiesRun(mergedReport)
            let pcaps = try shell.run("ls \(uploaded)\(accessory)/*/evidence/*/capture.pcap | wc -l")
            #expect(
                Int(pcaps.output.trimmingCharacters(in: .whitespacesAndNewlines)) == testCount
            )
        }
    }

    @Test func theGitLabTemplateRunsAndMerges() async throws {
        let template = try Self.template("gitlab-ci.yml")
        let job = try #require(template["awarebench"] as? [String: Any])
        let matrix = try #require(((job["parallel"] as? [String: Any])?["matrix"] as? [[String: Any]])?.first)
        let shards = try #require(matrix["SHARD"] as? [String])
        let accessories = try #require(matrix["ACCESSORY"] as? [String])
        let variables = try #require(template["variables"] as? [String: Any])
        #expect(variables["SHARDS"] as? String == String(shards.count), "SHARDS matches the matrix")
        let script = try #require(job["script"] as? [String])
        let reportJob = try #require(template["awarebench-report"] as? [String: Any])
        let mergeScript = try #require(reportJob["script"] as? [String])

        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        for accessory in accessories where accessory == "drone" {
            for shard in shards {
                let shell = Shell(
                    directory: directory,
                    environment: [
                        "SHARDS": String(shards.count), "SHARD": shard, "ACCESSORY": accessory,
                        "AWAREBENCH_BIN": CommandRunner.productsDirectory.path,
                    ]
                )
                for line in script {
                    let outcome = try shell.run(line)
                    #expect(outcome.status == 0, "\(line)\n\(outcome.output.suffix(800))")
                }
            }
            let shell = Shell(
                directory: directory,
                environment: ["ACCESSORY": accessory, "AWAREBENCH_BIN": CommandRunner.productsDirectory.path]
            )
            for line in mergeScript {
                let outcome = try shell.run(line)
                #expect(outcome.status == 0, "\(line)\n\(outcome.output.suffix(800))")
            }
            let whole = try await Self.unsharded(in: directory)
            #expect(try Self.verdicts(directory.appendingPathComponent("merged/\(accessory)/report.json")) == whole)
            // GitLab's JUnit globs find the files the jobs wrote.
            for (job, count) in [(job, shards.count), (reportJob, 1)] {
                let junit = try #require(
                    ((job["artifacts"] as? [String: Any])?["reports"] as? [String: Any])?["junit"] as? String
                )
                let found = try shell.run("ls \(junit) | wc -l")
                #expect(Int(found.output.trimmingCharacters(in: .whitespacesAndNewlines)) == count, "\(junit)")
            }
        }
    }
}

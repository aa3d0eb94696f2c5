import Foundation
import Testing

/// Every command's `--help` starts with USAGE and fits on two screens (80 lines): the line a
/// reader came for comes first, and long lists live in their own commands or the docs.
@Suite struct HelpTests {
    static let screens = 80

    /// Every command path of `program`, from ArgumentParser's own description of its tree.
    static func commandPaths(_ program: String) throws -> [[String]] {
        let dump = try CommandRunner.run(program, ["--experimental-dump-help"])
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any]
        )
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return paths
    }

    @Test(arguments: ["accessory-emu", "aware-conform"])
    func everyHelpStartsWithUsageAndFitsTwoScreens(program: String) async throws {
        let paths = try Self.commandPaths(program)
        #expect(paths.count > 3)
        for path in paths {
            let outcome = try await CommandRunner.run(program, path + ["--help"])
            let command = ([program] + path).joined(separator: " ")
            #expect(outcome.status == 0, "\(command) --help")
            let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first?.hasPrefix("USAGE: \(command)") == true, "\(command) --help: \(lines.first ?? "")")
            #expect(lines.count <= Self.screens, "\(command) --help is \(lines.count) lines")
        }
    }

    @Test func theHelpSubcommandAndTheVersionAreUnchanged() async throws {
        let help = try await CommandRunner.run("aware-conform", ["help", "run"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("USAGE: aware-conform run"))
        let version = try await CommandRunner.run("accessory-emu", ["--version"])
        #expect(version.status == 0)
        #expect(!version.standardOutput.contains("USAGE"))
        #expect(version.standardOutput.split(separator: "\n").count == 1)
    }

    @Test func faultsListsEveryFaultOnce() async throws {
        let text = try await CommandRunner.run("accessory-emu", ["faults"])
        let json = try await CommandRunner.run("accessory-emu", ["faults", "--json"])
        #expect(text.status == 0 && json.status == 0)
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]]
        )
        let names = list.compactMap { $0["name"] }
        #expect(names.count > 50 && Set(names).count == names.count)
        #expect(text.standardOutput.split(separator: "\n").map { String($0.split(separator: " ")[0]) } == names)
    }

    /// `--log-level` is an option of every command that runs (swift-log, to standard error).
    @Test(arguments: ["accessory-emu", "aware-conform"])
    func everyCommandTakesTheLogLevel(program: String) throws {
        let dump = try CommandRunner.run(program, ["--experimental-dump-help"])
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any]
        )
        var missing: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter {
                $0["commandName"] as? String != "help"
            }
            if subcommands.isEmpty {
                let names = (command["arguments"] as? [[String: Any]] ?? []).flatMap {
                    ($0["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                }
                if !names.contains("log-level") { missing.append(path.joined(separator: " ")) }
            }
            for sub in subcommands { walk(sub, path + [sub["commandName"] as? String ?? "?"]) }
        }
        walk(try #require(root["command"] as? [String: Any]), [program])
        #expect(missing.isEmpty, "no --log-level: \(missing)")
    }

    /// The level decides what reaches standard error: the runner's per-test lines at debug,
    /// nothing at the default (warning).
    @Test func theLogLevelDecidesWhatIsLogged() async throws {
        let arguments = ["run", "--profile", "Profiles/drone.json", "--only", "WA/DISC/MF/BV-01"]
        let quiet = try await CommandRunner.run("aware-conform", arguments)
        let debug = try await CommandRunner.run("aware-conform", arguments + ["--log-level", "debug"])
        #expect(quiet.status == 0 && debug.status == 0)
        #expect(!quiet.standardError.contains("awarebench."))
        #expect(debug.standardError.contains("debug awarebench.runner"))
        #expect(debug.standardError.contains("test=WA/DISC/MF/BV-01"))
        #expect(debug.standardError.contains("verdict=pass"))
    }
}

import ArgumentParser

struct AwareBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aware-bench",
        abstract: "AwareBench's benchmarks and its release-mode decoder robustness run.",
        discussion: """
            Every subcommand prints lines for people, then one JSON line for CI logs, \
            {"benchmark":"<subcommand>",...}. Speeds are reported as ratios against a baseline \
            measured in the same run on the same machine, because a bare number says little \
            about the code and a lot about the machine. Run the release build \
            (swift build -c release); debug numbers mean nothing.

            Exit codes: 0 done, 1 a property failed (robustness) or a measured command failed, \
            2 usage error, 3 environment error (a tool or fixture is missing).
            """,
        subcommands: [
            RobustnessCommand.self, DecodeThroughputCommand.self, DecodeVsTsharkCommand.self,
            DiscoverySoakCommand.self, SoakCommand.self, CrowdCommand.self, PairingCommand.self, SAEPTCommand.self,
            DataPathCommand.self, RadioCommand.self,
        ]
    )
}

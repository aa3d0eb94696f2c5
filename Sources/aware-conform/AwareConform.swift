import ArgumentParser
import AwareCommandLine

struct AwareConform: ParsableCommand {
    static let version = Invocation.version

    static let configuration = CommandConfiguration(
        commandName: "aware-conform",
        abstract: "A Wi-Fi Aware conformance runner that plays the phone.",
        discussion: """
            aware-conform tests a Wi-Fi Aware accessory the way an iPhone would use it: it plays the \
            phone over the same air as the accessory, runs the conformance catalogue (`run`, `list`), \
            finds accessories like `dns-sd -B` (`discover`), pairs and reconnects like a phone (`pair`, \
            `reconnect`), measures a live data path (`perf`), proves its own tests can fail \
            (`selftest`), decodes captures (`decode`) and checks sniffer captures of real devices \
            passively (`analyze`).

            Examples name the program as if it were on PATH; from a checkout run it as \
            .build/debug/aware-conform, or put it on PATH (README, "Installing").

            Exit status: 0 success, 1 test failures, 2 usage or input error, 3 environment error.
            """,
        version: Invocation.version,
        subcommands: [
            RunCommand.self, ListCommand.self, DiscoverCommand.self, SelftestCommand.self, DecodeCommand.self,
            AnalyzeCommand.self, KeysCommand.self, PairCommand.self, ReconnectCommand.self, PerfCommand.self,
            MergeCommand.self,
        ]
    )
}

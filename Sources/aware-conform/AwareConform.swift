import ArgumentParser

struct AwareConform: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aware-conform",
        abstract: "A Wi-Fi Aware conformance runner that plays the phone.",
        subcommands: []
    )
}

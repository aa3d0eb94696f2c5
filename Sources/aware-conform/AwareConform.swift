import ArgumentParser

struct AwareConform: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aware-conform",
        abstract: "A Wi-Fi Aware conformance runner that plays the phone.",
        discussion: """
            aware-conform tests a Wi-Fi Aware accessory the way an iPhone would use it. Today it \
            decodes frames and captures (`decode`); discovery, pairing, reconnect, data-path and \
            performance tests arrive with the emulator's air.

            Exit status: 0 success, 1 test failures, 2 usage or input error, 3 environment error.
            """,
        subcommands: [DecodeCommand.self]
    )
}

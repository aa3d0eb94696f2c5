import ArgumentParser
import AwareCommandLine

struct AccessoryEmu: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessory-emu",
        abstract: "An emulated Wi-Fi Aware accessory, driven by a profile.",
        discussion: """
            `accessory-emu --profile Profiles/drone.json` runs the accessory (the `run` command is the \
            default). `accessory-emu profile validate FILE` checks a profile. `accessory-emu reset \
            --state-dir DIR` is the factory reset (it forgets every paired phone and the identity). \
            `accessory-emu faults` lists the faults `--fault` can inject.

            Examples name the program as if it were on PATH; from a checkout run it as \
            .build/debug/accessory-emu, or put it on PATH (README, "Installing").

            Exit status: 0 success, 2 usage or profile error, 3 environment error (the air or a file \
            could not be used).
            """,
        version: Invocation.version,
        subcommands: [RunCommand.self, ProfileCommand.self, ResetCommand.self, FaultsCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

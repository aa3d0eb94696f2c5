import ArgumentParser

struct AccessoryEmu: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessory-emu",
        abstract: "An emulated Wi-Fi Aware accessory, driven by a profile.",
        discussion: """
            `accessory-emu --profile Profiles/drone.json` runs the accessory (the `run` command is the \
            default). `accessory-emu profile validate FILE` checks a profile. `accessory-emu reset \
            --state-dir DIR` is the factory reset (it forgets every paired phone and the identity).

            Exit status: 0 success, 2 usage or profile error, 3 environment error (the air or a file \
            could not be used).
            """,
        subcommands: [RunCommand.self, ProfileCommand.self, ResetCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

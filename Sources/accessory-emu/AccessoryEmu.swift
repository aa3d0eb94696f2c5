import ArgumentParser

struct AccessoryEmu: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessory-emu",
        abstract: "An emulated Wi-Fi Aware accessory.",
        subcommands: [ProfileCommand.self]
    )
}

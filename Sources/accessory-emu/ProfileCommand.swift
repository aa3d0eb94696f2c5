import ArgumentParser

struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Check and explain accessory profiles.",
        discussion: """
            A profile is a JSON file that says who the accessory is (device.vendorName, device.modelName, \
            device.pairingName), what it publishes (services[].name, services[].publishType, \
            services[].matchFilter, services[].serviceInfo), how it pairs and what one more phone gets \
            when its pairing table is full (pairing, pairing.whenFull), how many phones it serves data \
            paths to at once (radio.maxDataPathPeers), which performance modes it serves (performance) \
            and what application runs over the data path (app).

            The full reference is docs/reference/profile-reference.md (linked from the README's profile reference); \
            the machine-readable rules are in Profiles/profile.schema.json. Examples: Profiles/drone.json, \
            Profiles/camera.json, Profiles/speaker.json.
            """,
        subcommands: [ProfileValidateCommand.self]
    )
}

import ArgumentParser
import ConformanceKit

/// `--phone`: which phone the runner plays (docs/phones.md), shared by `run`, `discover`, `pair`,
/// `reconnect` and `perf`.
struct PhoneOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Play this phone (docs/phones.md).",
            valueName: "phone"
        )
    )
    var phone: PhoneProfile.Name = .reference

    var profile: PhoneProfile { PhoneProfile(phone) }

    /// What the rerun command repeats: nothing for the default.
    var rerunArguments: [String] { phone == .reference ? [] : ["--phone", phone.rawValue] }
}

extension PhoneProfile.Name: ExpressibleByArgument {}

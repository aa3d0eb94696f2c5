import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareRadio
import ConformanceKit
import Foundation

/// `--target` and `--profile`, shared by every command that talks to an accessory.
struct TargetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where the accessory is: embedded (in-process, virtual time), spawn (accessory-emu children), "
                + "socket[:PATH] (one someone else started; default: the per-user air) or nl80211:IFACE (through a "
                + "real radio; docs/guides/nl80211.md).",
            valueName: "target"
        )
    )
    var target: String = "embedded"

    @Option(help: ArgumentHelp("The accessory's profile (JSON).", valueName: "file"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "With --target socket[:PATH]: accessory-emu's control socket (docs/reference/control.md) to reboot, "
                + "reset and fault it; tests run one at a time.",
            valueName: "path"
        )
    )
    var control: String?

    func validate() throws {
        let air = AirSpecifier(argument: target)
        guard
            target == "embedded" || target == "spawn" || target == "spawn" + AirSpecifier.lockstepSuffix
                || air?.socketPath != nil || air?.interfaceName != nil
        else {
            throw ValidationError(
                "--target must be embedded, spawn[?lockstep], socket, socket:PATH[?lockstep] or nl80211:IFACE, "
                    + "not \"\(target)\""
            )
        }
        if control != nil && AirSpecifier(argument: target)?.socketPath == nil {
            throw ValidationError(
                "--control applies to --target socket[:PATH]; the runner drives the accessories it starts itself"
            )
        }
    }

    /// Tests at once: a controlled accessory is shared, and one test's reboot would cut another's
    /// session, so they take turns; so do tests that may ask the operator to reboot it or the
    /// person at the terminal anything.
    func effectiveJobs(_ requested: Int, operatorAccess: OperatorAccess = OperatorAccess()) -> Int {
        let shared =
            control != nil || operatorAccess.reboot != nil || operatorAccess.reset != nil || operatorAccess.prompts
        return shared ? 1 : requested
    }

    /// The profile and its document; usage errors (exit 2) name the file and the problem.
    func loadProfile(required: Bool) throws -> (AccessoryProfile, Data, String)? {
        guard let path = profile else {
            if required {
                throw ValidationError("--profile FILE is required: the runner needs to know what the accessory is")
            }
            return nil
        }
        let loaded: AccessoryProfile
        do {
            loaded = try ProfileLoader.load(path: path)
        } catch {
            var standardError = StandardError()
            for line in error.lines(file: path) { print(line, to: &standardError) }
            throw ExitCode(2)
        }
        guard let document = FileManager.default.contents(atPath: path) else { throw ExitCode(2) }
        return (loaded, document, path)
    }

    /// The target for `profile`, reaching beyond the air with `operatorAccess`; environment
    /// problems exit 3.
    func makeTarget(
        profile: AccessoryProfile,
        document: Data,
        path: String,
        operatorAccess: OperatorAccess = OperatorAccess()
    ) throws -> any AccessoryTarget {
        let facts = ProfileFacts(profile: profile, path: path)
        switch target {
        case "embedded":
            var embedded = EmbeddedTarget(
                profileDocument: document,
                profile: facts,
                factory: EmbeddedAccessoryAdapter.factory
            )
            embedded.operatorAccess = operatorAccess
            return embedded
        case "spawn", "spawn" + AirSpecifier.lockstepSuffix:
            let emulator = Self.siblingExecutable("accessory-emu")
            guard FileManager.default.isExecutableFile(atPath: emulator) else {
                var standardError = StandardError()
                print(
                    "aware-conform: the spawn target needs accessory-emu next to aware-conform (\(emulator))",
                    to: &standardError
                )
                throw ExitCode(3)
            }
            var spawn = SpawnTarget(emulatorPath: emulator, profileDocument: document, profile: facts)
            spawn.lockstep = target != "spawn"
            spawn.operatorAccess = operatorAccess
            return spawn
        default:
            return try makeAirTarget(profile: facts, operatorAccess: operatorAccess)
        }
    }

    /// The target on an air: socket[:PATH], or nl80211:IFACE once the radio has been checked
    /// (no cfg80211, no interface, not NAN capable: the reason and how to check, exit 3).
    func makeAirTarget(
        profile facts: ProfileFacts,
        operatorAccess: OperatorAccess = OperatorAccess()
    ) throws -> any AccessoryTarget {
        guard let interface = AirSpecifier(argument: target)?.interfaceName else {
            let path = AirSpecifier(argument: target)?.socketPath ?? SocketAir.defaultPath
            return SocketTarget(
                path: path,
                profile: facts,
                controlPath: control,
                lockstep: AirSpecifier.isLockstep(argument: target),
                operatorAccess: operatorAccess
            )
        }
        var radio = RadioTarget(interface: interface, profile: facts, operatorAccess: operatorAccess)
        // The phone's radio went down or away mid-run: no test can go on (docs/guides/nl80211.md).
        radio.radioLost = { error in
            var standardError = StandardError()
            print("aware-conform: --target nl80211:\(interface): \(error)", to: &standardError)
            Foundation.exit(3)
        }
        do {
            try radio.probe()
        } catch {
            var standardError = StandardError()
            print("aware-conform: --target nl80211:\(interface): \(error)", to: &standardError)
            throw ExitCode(3)
        }
        return radio
    }

    /// A program built next to this one.
    static func siblingExecutable(_ name: String) -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent(name).path
    }
}

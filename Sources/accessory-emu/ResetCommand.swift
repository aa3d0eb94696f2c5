import AccessoryKit
import ArgumentParser
import AwareCommandLine
import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Factory reset: forget every paired phone and the accessory's identity.",
        discussion: """
            Removes from the state directory the pairing store (pairings.json: every paired phone's \
            keys and the accessory's own NIK), the identity (identity.json: the NMI and the boot \
            count) and the wrong-PIN counts (lockout.json). The next `accessory-emu --state-dir DIR` starts as a new device: a new NMI, boot 1, \
            no pairings, so every phone must pair again with a PIN. The directory itself stays. A \
            damaged pairing store or identity is removed too: this is how to start afresh.

            Without --yes it asks for confirmation on a terminal, and refuses (exit 2) when standard \
            input is not one.

            EXIT STATUS
              0  reset done (or nothing to remove); prints what was removed, for example \
            "removed 2 paired devices and the identity"
              2  usage error: DIR does not exist or is not a directory (nothing to reset there), or \
            no --yes without a terminal, or the answer was not yes
              3  environment error: the emulator is running on DIR (it holds DIR/lock; stop it \
            first), or a file could not be removed

            EXAMPLE
              accessory-emu reset --state-dir ~/.drone-state --yes
            """
    )

    @Option(help: ArgumentHelp("The accessory's state directory (as given to --state-dir).", valueName: "dir"))
    var stateDir: String

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        var standardError = StandardError()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: stateDir, isDirectory: &isDirectory) else {
            print("accessory-emu reset: \(stateDir) does not exist: nothing to reset", to: &standardError)
            throw ExitCode(2)
        }
        guard isDirectory.boolValue else {
            print("accessory-emu reset: \(stateDir) is not a directory", to: &standardError)
            throw ExitCode(2)
        }
        let directory: AccessoryStateDirectory
        do {
            directory = try AccessoryStateDirectory(path: stateDir)
        } catch {
            if case .inUse = error {
                print(
                    "accessory-emu reset: \(stateDir) is in use by a running accessory-emu (it holds "
                        + "\(stateDir)/lock); stop it first, nothing was removed",
                    to: &standardError
                )
            } else {
                print("accessory-emu reset: \(error)", to: &standardError)
            }
            throw ExitCode(3)
        }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                print(
                    "accessory-emu reset: standard input is not a terminal; add --yes to reset \(stateDir)",
                    to: &standardError
                )
                throw ExitCode(2)
            }
            print(
                "Forget every paired phone and this accessory's identity in \(stateDir)? Type yes to reset: ",
                terminator: ""
            )
            guard readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "yes" else {
                print("accessory-emu reset: not confirmed; nothing was removed", to: &standardError)
                throw ExitCode(2)
            }
        }
        do {
            let summary = try directory.factoryReset()
            print(summary.description)
        } catch {
            print("accessory-emu reset: \(error)", to: &standardError)
            throw ExitCode(3)
        }
    }
}

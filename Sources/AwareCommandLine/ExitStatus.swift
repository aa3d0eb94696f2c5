import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Runs the command like `main()`, but a usage error exits 2, the project's code for
    /// "usage or profile error" (docs/reference/architecture.md, CLI conventions), instead of
    /// ArgumentParser's 64 (EX_USAGE).
    public static func mainWithProjectExitCodes() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

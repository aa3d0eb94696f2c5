import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareCore
import Foundation

struct ProfileValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a profile against the schema and the rules the phone enforces.",
        discussion: """
            Prints who the accessory is and what it publishes, and exits 0, when the profile is good. \
            Otherwise prints one line per problem to standard error and exits 2. Each line names the \
            JSON path, the value and the rule, for example:

              services[0].name: "_drone_service._udp" — only letters, digits and hyphens are allowed

            Rules checked: every rule of Profiles/profile.schema.json (unknown keys are errors, to \
            catch typos), and the semantic rules of docs/reference/profile-reference.md: service names are \
            `_` + 1-15 letters, digits and hyphens (at least one letter, no hyphen at either end) + \
            `._tcp` or `._udp`; TXT values fit 63 octets of UTF-8; instance IDs and service names are \
            unique; a fixed PIN has `pin.length` digits; match filters fit 255 octets; app parts name \
            a published service.

            Match filters are written as colon-separated items: `*` is a wildcard, `hex:` makes the \
            next item hex octets, `\\` escapes a literal `*` or `hex` (`drone:*:v2`, `hex:01:*:hex:03`).
            """
    )

    @Argument(help: "The profile to check (JSON).")
    var file: String

    @Flag(help: "Print the result as JSON on standard output: the normalized profile, or the issues.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let profile: AccessoryProfile
        do {
            profile = try ProfileLoader.load(path: file)
        } catch {
            try reportFailure(error)
            throw ExitCode(2)
        }
        if json {
            try printJSON(ValidationReport(file: file, valid: true, profile: profile, issues: nil))
        } else {
            print("\(file): valid profile")
            for line in profile.summaryLines { print("  " + line) }
        }
    }

    private func reportFailure(_ error: ProfileError) throws {
        if json {
            try printJSON(ValidationReport(file: file, valid: false, profile: nil, issues: error.issues))
            return
        }
        var standardError = StandardError()
        for line in error.lines(file: file) { print(line, to: &standardError) }
    }

    private func printJSON(_ report: ValidationReport) throws {
        print(try JSONValueEncoder().encode(report).serialized([.prettyPrinted, .sortedKeys]))
    }
}

private struct ValidationReport: Encodable {
    var file: String
    var valid: Bool
    var profile: AccessoryProfile?
    var issues: [ProfileIssue]?
}

import ArgumentParser
import AwareCommandLine
import ConformanceKit
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show every test: ID, title, group, tags, and whether the profile makes it applicable.",
        discussion: """
            With --profile, each test says whether it applies to that accessory and, if not, why (for \
            example "the profile does not offer pairing"). Without, the catalogue is listed as is.
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @OptionGroup(title: "A device the runner did not build")
    var operatorOptions: OperatorOptions

    @Flag(
        help: ArgumentHelp(
            "Print, as JSON, the tests each accessory fault must make fail against the profile (what selftest "
                + "checks; Fixtures/selftest/<profile>-matrix.json records it for each shipped profile)."
        )
    )
    var faultMatrix = false

    @Flag(
        help: ArgumentHelp(
            "Print the catalogue as a Markdown table: each test's ID, title, group, tags, the faults declared to break "
                + "it, its shared steps and their faults (docs/reference/test-catalogue.md; ci/gen-test-catalogue)."
        )
    )
    var markdown = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if faultMatrix && markdown { throw ValidationError("--fault-matrix and --markdown are two listings: pick one") }
    }

    func run() throws {
        logging.bootstrap()
        let options = targetOptions
        let loaded = try options.loadProfile(required: false)
        let target: any AccessoryTarget
        if let (profile, document, path) = loaded {
            let operatorAccess = try operatorOptions.access(
                target: options.target,
                control: options.control,
                profile: profile
            )
            target = try options.makeTarget(
                profile: profile,
                document: document,
                path: path,
                operatorAccess: operatorAccess
            )
        } else {
            target = EmbeddedTarget(
                profileDocument: Data(),
                profile: ProfileFacts(path: "", services: []),
                factory: EmbeddedAccessoryAdapter.factory
            )
        }
        if faultMatrix {
            print(FaultMatrix(profile: loaded == nil ? nil : target.capabilities.profile).json, terminator: "")
            return
        }
        let catalogue = try TestCatalogue(ConformanceSuites.tests(target: target))
        if markdown {
            print(CatalogueMarkdown.render(catalogue), terminator: "")
            return
        }
        print(
            CatalogueListingFormatter.render(catalogue.listing(on: loaded == nil ? nil : target.capabilities)),
            terminator: ""
        )
    }
}

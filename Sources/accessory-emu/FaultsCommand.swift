import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareCore

/// `accessory-emu faults`: the rules `--fault` can break, one per line (or JSON), so that the
/// run command's help stays short and scripts get the list without scraping it.
struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults",
        abstract: "List the faults `run --fault NAME` can inject, one per line.",
        discussion: """
            Each fault makes the accessory break one rule on purpose, so that the conformance test \\
            that checks the rule can be seen to fail (`aware-conform selftest` does this for every \\
            fault).
            """
    )

    @Flag(help: "Print a JSON list of {name, summary} objects instead.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        if json {
            let list = JSONValue.array(
                AccessoryFault.allCases.map {
                    .object([("name", .string($0.rawValue)), ("summary", .string($0.summary))])
                }
            )
            print(list.serialized([.prettyPrinted]))
        } else {
            let width = AccessoryFault.allCases.map(\.rawValue.count).max() ?? 0
            for fault in AccessoryFault.allCases {
                print(fault.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + fault.summary)
            }
        }
    }
}

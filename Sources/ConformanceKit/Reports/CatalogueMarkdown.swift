import Foundation

/// The catalogue as Markdown (`aware-conform list --markdown`): a row per test with the faults declared to
/// break it, then the shared steps and their faults. docs/reference/test-catalogue.md holds this text
/// between its generated markers; `ci/gen-test-catalogue` writes it there.
public enum CatalogueMarkdown {
    public static func render(_ catalogue: TestCatalogue) -> String {
        var lines = [
            "| ID | Title | Group | Tags | Broken by | Steps | Only if |",
            "|---|---|---|---|---|---|---|",
        ]
        var steps: [SharedStep] = []
        for test in catalogue.tests {
            let contract = test.faultContract
            var brokenBy = [codes(contract.brokenBy)]
            for extra in contract.conditional {
                brokenBy.append("\(codes(extra.faults)) when \(extra.condition.description)")
            }
            let row = [
                test.id.description, test.title, test.group, test.tags.map(\.name).joined(separator: ", "),
                brokenBy.joined(separator: "; "), contract.steps.map(\.name).joined(separator: ", "),
                contract.onlyIf.map(\.description).joined(separator: "; "),
            ]
            lines.append("| " + row.map(cell).joined(separator: " | ") + " |")
            for step in contract.stepChain where !steps.contains(step) { steps.append(step) }
        }
        lines += [
            "",
            "\(catalogue.tests.count) tests; \(catalogue.faults.count) accessory faults. A test is broken by the faults "
                + "in its row, by those of its steps and of the steps they come after, and only where the profile "
                + "lets it run (Only if):",
            "",
            "| Step | After | Broken by | Why |",
            "|---|---|---|---|",
        ]
        for step in steps {
            let row = [step.name, step.after.map(\.name).joined(separator: ", "), codes(step.brokenBy), step.reason]
            lines.append("| " + row.map(cell).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func codes(_ faults: [FaultName]) -> String {
        faults.map { "`\($0.rawValue)`" }.joined(separator: ", ")
    }

    /// A table cell: a `|` would end it early.
    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}

import Foundation
import Testing

/// The fault-to-test contract as written down outside the code: the matrix recorded for each shipped
/// profile (Fixtures/selftest) and the catalogue's table in docs/reference/test-catalogue.md must be
/// what aware-conform computes from the tests' declarations, so a change to the contract is a change
/// to those files, seen in review.
@Suite struct CatalogueContractTests {
    static func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: CommandRunner.repository.appendingPathComponent(path)), as: UTF8.self)
    }

    @Test(arguments: ["drone", "camera", "speaker"])
    func theContractEqualsTheRecordedMatrix(profile: String) async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["list", "--profile", "Profiles/\(profile).json", "--fault-matrix"]
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let recorded = "Fixtures/selftest/\(profile)-matrix.json"
        #expect(
            outcome.standardOutput == (try Self.text(recorded)),
            """
            the fault-to-test contract for Profiles/\(profile).json differs from \(recorded): review the change, \
            and if it is meant, record it: .build/debug/aware-conform list --profile Profiles/\(profile).json \
            --fault-matrix > \(recorded)
            """
        )
    }

    @Test func theCatalogueTableInTheDocsIsCurrent() async throws {
        let outcome = try await CommandRunner.run("aware-conform", ["list", "--markdown"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let page = try Self.text("docs/reference/test-catalogue.md")
        let begin = "<!-- BEGIN GENERATED: aware-conform list --markdown (ci/gen-test-catalogue) -->\n"
        let end = "<!-- END GENERATED -->"
        let start = try #require(page.range(of: begin), "the page has its begin marker")
        let stop = try #require(page.range(of: end, range: start.upperBound..<page.endIndex), "and its end marker")
        #expect(
            String(page[start.upperBound..<stop.lowerBound]) == outcome.standardOutput,
            "docs/reference/test-catalogue.md's table is stale: run ci/gen-test-catalogue --bin .build/debug"
        )
    }
}

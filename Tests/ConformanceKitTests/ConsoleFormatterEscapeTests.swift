import AwareCore
import Testing

@testable import ConformanceKit

/// A verdict's message may quote what the accessory sent; the console shows control characters
/// instead of obeying them (issue 21, finding 9: an ESC sequence in a TXT value reached the terminal).
@Suite struct ConsoleFormatterEscapeTests {
    static func result(_ verdict: TestVerdict, message: String, failure: String? = nil) throws -> TestResult {
        TestResult(
            id: try TestID("WA/DISC/ASK/BV-03"),
            title: "The TXT record carries both vendorName and modelName",
            tags: [],
            verdict: verdict,
            message: message,
            errorOrigin: nil,
            seed: 7,
            iterations: verdict == .skip
                ? []
                : [
                    IterationResult(
                        iteration: 1,
                        seed: 7,
                        baseSeed: 7,
                        verdict: verdict,
                        message: message,
                        failures: failure.map { [RecordedFailure(message: $0, location: "Suite.swift:9", time: .zero)] }
                            ?? [],
                        wallSeconds: 0.5,
                        virtualSeconds: nil
                    )
                ],
            plannedIterations: 1,
            rerunCommand: nil,
            evidenceDirectory: nil
        )
    }

    @Test func aFailureQuotingTheAirIsEscaped() throws {
        let text = ConsoleFormatter().progress(
            try Self.result(.fail, message: "x", failure: "vendorName is \"Acme\u{1B}[2J\u{1B}]0;owned\u{07}\""),
            position: 1,
            total: 1
        )
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
        #expect(text.contains(#"Suite.swift:9: vendorName is "Acme\x1B[2J\x1B]0;owned\x07""#))
    }

    @Test func aSkipReasonIsEscaped() throws {
        let text = ConsoleFormatter().progress(try Self.result(.skip, message: "no\rreason"), position: 1, total: 1)
        #expect(text.contains(#"(no\x0Dreason)"#))
    }
}

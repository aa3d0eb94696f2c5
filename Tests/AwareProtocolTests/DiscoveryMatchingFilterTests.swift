import AwareWire
import Testing

@testable import AwareProtocol

/// Matching filters in both directions (nan-wire-reference.md 2.4): the subscriber's receive
/// filter against an unsolicited publish's transmit filter, and an active subscriber's transmit
/// filter against a solicited publisher's receive filter. The rows are those of hostap's
/// test_nan.py `nan_sync_{subscriber,publisher}_match_filter_1..16` (filters in wire form,
/// `<len><value>`), re-derived from the rule and checked here through the engines.
@Suite struct DiscoveryMatchingFilterTests {
    typealias Support = DiscoveryTestSupport

    struct Row: Sendable, CustomTestStringConvertible {
        var number: Int
        var publisher: String?
        var subscriber: String?
        var matches: Bool
        var testDescription: String {
            "row \(number): pub \(publisher ?? "-") sub \(subscriber ?? "-") -> \(matches ? "match" : "no match")"
        }
    }

    static let fiveItems = "01010102010301040105"
    static let fiveWildcards = "0000000000"

    /// Unsolicited publish TX filter (publisher) × passive subscriber RX filter (subscriber).
    static let subscriberSide: [Row] = [
        Row(number: 1, publisher: nil, subscriber: nil, matches: true),
        Row(number: 2, publisher: nil, subscriber: fiveWildcards, matches: true),
        Row(number: 3, publisher: fiveWildcards, subscriber: nil, matches: true),
        Row(number: 4, publisher: nil, subscriber: fiveItems, matches: false),
        Row(number: 5, publisher: fiveItems, subscriber: nil, matches: true),
        Row(number: 6, publisher: fiveWildcards, subscriber: fiveItems, matches: true),
        Row(number: 7, publisher: fiveItems, subscriber: fiveWildcards, matches: true),
        Row(number: 8, publisher: fiveItems, subscriber: fiveItems, matches: true),
        Row(number: 9, publisher: fiveItems, subscriber: "01010102010101040105", matches: false),
        Row(number: 10, publisher: "0101000103000105", subscriber: fiveItems, matches: true),
        Row(number: 11, publisher: fiveItems, subscriber: "0001020103000105", matches: true),
        Row(number: 12, publisher: "0001020104", subscriber: fiveItems, matches: false),
        Row(number: 13, publisher: fiveItems, subscriber: "010100010300", matches: true),
        Row(number: 14, publisher: "051122334455", subscriber: "051122334455", matches: true),
        Row(number: 15, publisher: "021122", subscriber: "051122334455", matches: false),
        Row(number: 16, publisher: "051122334455", subscriber: "03112233", matches: false),
    ]

    /// Active subscribe TX filter (subscriber) × solicited publisher RX filter (publisher).
    static let publisherSide: [Row] = [
        Row(number: 1, publisher: nil, subscriber: nil, matches: true),
        Row(number: 2, publisher: fiveWildcards, subscriber: nil, matches: true),
        Row(number: 3, publisher: nil, subscriber: fiveWildcards, matches: true),
        Row(number: 4, publisher: fiveItems, subscriber: nil, matches: true),
        Row(number: 5, publisher: nil, subscriber: fiveItems, matches: false),
        Row(number: 6, publisher: fiveWildcards, subscriber: fiveItems, matches: true),
        Row(number: 7, publisher: fiveItems, subscriber: fiveWildcards, matches: true),
        Row(number: 8, publisher: fiveItems, subscriber: fiveItems, matches: true),
        Row(number: 9, publisher: "01010102010101040105", subscriber: fiveItems, matches: false),
        Row(number: 10, publisher: fiveItems, subscriber: "0101000103000105", matches: true),
        Row(number: 11, publisher: "0001020103000105", subscriber: fiveItems, matches: true),
        Row(number: 12, publisher: fiveItems, subscriber: "000102000104", matches: true),
        Row(number: 13, publisher: "010100010300", subscriber: fiveItems, matches: false),
        Row(number: 14, publisher: "051122334455", subscriber: "051122334455", matches: true),
        Row(number: 15, publisher: "0411223344", subscriber: "051122334455", matches: false),
        Row(number: 16, publisher: "051122334455", subscriber: "03112233", matches: false),
    ]

    @Test(arguments: subscriberSide) func passiveSubscriberMatchesUnsolicitedPublish(_ row: Row) {
        var wire = Support.pair()
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .unsolicited,
                    matchingFilter: Support.filter(row.publisher),
                    receiveMatchingFilter: .some(nil)
                )
            )
        )
        wire.command(
            1,
            .subscribe(
                SubscribeConfiguration(
                    serviceName: Support.service,
                    mode: .passive,
                    matchingFilter: nil,
                    receiveMatchingFilter: Support.filter(row.subscriber)
                )
            )
        )
        wire.run(for: .milliseconds(500))
        #expect(wire.results(1).count == (row.matches ? 1 : 0))
        // The filter went out in the SDA exactly as configured.
        let sent = wire.frames(from: 0).first.flatMap { Support.descriptor(of: $0.frame) }
        #expect(sent?.matchingFilter == Support.filter(row.publisher))
    }

    @Test(arguments: publisherSide) func solicitedPublisherMatchesActiveSubscribe(_ row: Row) {
        var wire = Support.pair()
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .solicited,
                    matchingFilter: nil,
                    receiveMatchingFilter: Support.filter(row.publisher)
                )
            )
        )
        wire.command(
            1,
            .subscribe(
                SubscribeConfiguration(
                    serviceName: Support.service,
                    mode: .active,
                    matchingFilter: Support.filter(row.subscriber),
                    receiveMatchingFilter: .some(nil)
                )
            )
        )
        wire.run(for: .milliseconds(500))
        #expect(wire.replies(0).count == (row.matches ? 1 : 0))
        #expect(wire.results(1).count == (row.matches ? 1 : 0))
        #expect(wire.frames(from: 0).isEmpty == !row.matches)
    }

    @Test func aRejectedPublishIsReportedWithItsReasonWhenAsked() throws {
        var wire = Support.pair(reportsRejected: true)
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .unsolicited,
                    matchingFilter: Support.filter("0411223344")
                )
            )
        )
        wire.command(
            1,
            .subscribe(SubscribeConfiguration(serviceName: Support.service, matchingFilter: Support.filter("0155")))
        )
        wire.run(for: .milliseconds(500))
        let result = try #require(wire.results(1).first)
        #expect(wire.results(1).count == 1)
        #expect(result.outcome == .matchingFilterMismatch)
        #expect(!result.matched)
    }
}

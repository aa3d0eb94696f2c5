import AccessoryKit
import AwareCore
import AwareDevice
import AwareRadio
import ConformanceKit
import Testing

/// Pairing records and NIK lifetimes are reckoned on the scheduler's calendar, never the host's
/// clock (issue 17): on the simulated air a lifetime runs out in virtual time, and `pairedAt` is
/// the simulated date of the pairing.
@Suite struct PairingCalendarTests {
    typealias Bench = PairingEndToEndTests.Bench
    /// 2001-09-09 01:46:40 UTC: far from the host's clock, so a record stamped from it shows.
    static let origin = CalendarTime(unixSeconds: 1_000_000_000)

    @Test func bothSidesStampTheirRecordsWithTheSimulatedDate() throws {
        let bench = try Bench()
        bench.air.virtualScheduler.calendarOrigin = Self.origin
        let result = try bench.discover()
        #expect(bench.pair(result)?.keysCached == true)
        let elapsed = Int64(bench.air.virtualScheduler.now.seconds)
        for record in [bench.phone.pairing.records.first, bench.accessory.pairedPeers.first] {
            let pairedAt = try #require(record?.pairedAt)
            #expect((1_000_000_000...(1_000_000_000 + elapsed)).contains(pairedAt), "pairedAt \(pairedAt)")
        }
    }

    @Test func theAccessorysNIKLifetimeRunsOutInVirtualTime() throws {
        // The accessory gives its NIK an hour; the phone honours it on the simulated calendar.
        let bench = try Bench { $0.pairing?.cache.nikLifetimeSeconds = 3_600 }
        bench.air.virtualScheduler.calendarOrigin = Self.origin
        let result = try bench.discover()
        #expect(bench.pair(result)?.keysCached == true)
        #expect(bench.phone.pairing.resolve(result) != nil, "within the hour the NIRA resolves")
        // An hour passes on the calendar without simulating it (the clock is set forward).
        bench.air.virtualScheduler.calendarOrigin = Self.origin + .seconds(3_600)
        #expect(bench.phone.pairing.resolve(result) == nil, "after the hour it resolves nothing")
        bench.phone.pairing.reconnect(with: result)
        #expect(bench.phone.pairing.outcome?.reason == "no-cached-keys")
    }

    @Test func theAccessoryRefusesAVerificationOnceThePhonesNIKExpired() throws {
        // The phone gives its NIK a day (86,400 s); the accessory keeps its own without expiry.
        let bench = try Bench()
        bench.air.virtualScheduler.calendarOrigin = Self.origin
        let result = try bench.discover()
        #expect(bench.pair(result)?.keysCached == true)
        bench.phone.pairing.dropLink(with: result.publisherAddress)
        bench.accessory.device.removePairwiseKey(peer: bench.phone.address)
        bench.air.virtualScheduler.calendarOrigin = Self.origin + .seconds(2 * 86_400)
        let again = try bench.discover()
        #expect(bench.phone.pairing.resolve(again) != nil, "the accessory's NIK does not expire")
        bench.phone.pairing.reconnect(with: again)
        #expect(bench.run(.seconds(10)) { bench.phone.pairing.outcome != nil })
        #expect(bench.phone.pairing.outcome?.result == .failed)
        let refused = bench.events.filter { $0.name == "verification_failed" }.map(\.json.serialized)
        #expect(refused.contains { $0.contains("no-cached-keys") }, "\(refused)")
    }
}

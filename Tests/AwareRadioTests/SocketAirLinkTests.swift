import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// A process that models its link (an accessory moved through its control channel): the other
/// side reports the stamped RSSI, and out of range nothing crosses either way.
@Suite struct SocketAirLinkTests {
    @Test func theStampedRSSIIsWhatTheOtherSideReports() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let b = try AirStation(directory.air, address: addressB)
        a.scheduler.sync { a.air.link = SocketAirLink(rssiDBm: -77, inRange: true) }
        a.send(actionFrame(to: .broadcast, from: addressA), cookie: 1)
        #expect(b.received.wait(forCount: 1).first?.info.rssiDBm == -77)
        // And a frame b sends is reported at the same figure by a, not a's fixed -50.
        b.send(actionFrame(to: .broadcast, from: addressB), cookie: 2)
        #expect(a.received.wait(forCount: 1).first?.info.rssiDBm == -77)
    }

    @Test func outOfRangeNothingCrossesAndUnicastIsNotAcknowledged() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA, acknowledgementTimeout: .milliseconds(100))
        let b = try AirStation(directory.air, address: addressB, acknowledgementTimeout: .milliseconds(100))
        a.scheduler.sync { a.air.link = SocketAirLink(rssiDBm: -85, inRange: false) }
        a.send(actionFrame(to: addressB, from: addressA), cookie: 1)
        #expect(a.status(of: 1)?.acknowledged == false)
        b.send(actionFrame(to: addressA, from: addressB), cookie: 2)
        #expect(b.status(of: 2)?.acknowledged == false)
        #expect(b.received.all.isEmpty)
        #expect(a.received.all.isEmpty)
        #expect(a.statistics.outOfRangeDropped == 2)
        #expect(a.tap.frames.all.count == 1, "the sender's own capture still shows what it sent")
        // Back in range, frames flow again.
        a.scheduler.sync { a.air.link = SocketAirLink(rssiDBm: -60, inRange: true) }
        a.send(actionFrame(to: addressB, from: addressA), cookie: 3)
        #expect(a.status(of: 3)?.acknowledged == true)
        #expect(b.received.wait(forCount: 1).first?.info.rssiDBm == -60)
    }
}

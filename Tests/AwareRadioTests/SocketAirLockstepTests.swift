import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// Two socket airs in lockstep, each with its own scheduler as two processes would have: time
/// is virtual and shared, and a frame arrives exactly its airtime after it was sent, however
/// long the processes take in wall time.
@Suite struct SocketAirLockstepTests {
    final class Member {
        let scheduler = WallClockScheduler()
        let air: SocketAir
        let received = Inbox<(Reception, Instant)>()
        let statuses = Inbox<(TxStatus, Instant)>()
        var port: (any AirPort)?

        init(_ path: String, address: MACAddress) throws {
            air = try SocketAir(path: path, scheduler: scheduler, lockstep: true)
            scheduler.runInBackground()
            let received = received
            let statuses = statuses
            let scheduler = scheduler
            port = try scheduler.sync { () throws(AirError) -> any AirPort in
                let port = try air.attach(
                    StationConfiguration(addresses: [address], name: "\(address)"),
                    receive: { received.append(($0, scheduler.now)) },
                    transmitted: { statuses.append(($0, scheduler.now)) }
                )
                port.listeningChannels = [.channel6]
                return port
            }
        }

        func close() {
            air.close()
            scheduler.stop()
        }
    }

    @Test func aFrameArrivesItsAirtimeAfterItLeftOnTheSharedVirtualClock() throws {
        let directory = TemporaryAirDirectory()
        let a = try Member(directory.air, address: addressA)
        let b = try Member(directory.air, address: addressB)
        defer {
            a.close()
            b.close()
        }
        #expect(a.scheduler.isLockstep && b.scheduler.isLockstep)
        // A sends at virtual 1 s: 30 octets at 6 Mb/s take 20 µs + 11 symbols of 4 µs = 64 µs
        // (IEEE 802.11-2020 17.4.3), with the 4-octet FCS: (16 + 8·34 + 6) / 24 → 12 symbols = 68 µs.
        let frame = actionFrame(to: addressB, from: addressA, body: [])
        let port = a.port
        let scheduler = a.scheduler
        scheduler.sync {
            scheduler.schedule(at: .zero + .seconds(Int64(1))) {
                port?.transmit(TxRequest(frame: frame, channel: .channel6, powerDBm: 20, cookie: 9))
            }
        }
        let heard = b.received.wait(forCount: 1, timeout: 10)
        try #require(heard.count == 1)
        let expectedAirtime = OFDMRate.mbps6.airtime(frameLength: frame.count)
        #expect(heard[0].1.nanoseconds == 1_000_000_000 + UInt64(expectedAirtime.nanoseconds))
        #expect(heard[0].0.frame == frame)
        // The ACK comes back SIFS + ACK airtime (60 µs) after the frame ended.
        let status = a.statuses.wait(forCount: 1, timeout: 10)
        try #require(status.count == 1)
        #expect(status[0].0.acknowledged)
        #expect(status[0].1 == heard[0].1 + .microseconds(60))
    }

    @Test func aProcessAloneWaitsForTheOther() throws {
        let directory = TemporaryAirDirectory()
        let a = try Member(directory.air, address: addressA)
        defer { a.close() }
        let fired = Inbox<Instant>()
        let scheduler = a.scheduler
        scheduler.sync { scheduler.schedule(at: .zero + .milliseconds(5)) { fired.append(scheduler.now) } }
        #expect(fired.wait(forCount: 1, timeout: 0.5).isEmpty, "time does not run for one process")
        let b = try Member(directory.air, address: addressB)
        defer { b.close() }
        #expect(fired.wait(forCount: 1, timeout: 10) == [.zero + .milliseconds(5)])
    }

    /// Only the air's clock grants: admits and grants from any other socket in the directory are
    /// ignored and counted, so a lone process's time stays still (issue 21, finding 9: a spoofed
    /// grant made it run free).
    @Test func grantsFromAnotherSocketThanTheClockAreIgnored() throws {
        let directory = TemporaryAirDirectory()
        let a = try Member(directory.air, address: addressA)
        defer { a.close() }
        let fired = Inbox<Instant>()
        let scheduler = a.scheduler
        scheduler.sync { scheduler.schedule(at: .zero + .milliseconds(5)) { fired.append(scheduler.now) } }
        let spoofer = try RawPeer(directory.air + "/spoofer.sock")
        defer { spoofer.abandon() }
        let horizon = UInt64(10_000_000_000)
        for round in UInt64(0)...4 {
            try spoofer.send(LockstepMessage.admit(round: round, horizon: horizon).datagram.bytes, to: a.air.socketPath)
            try spoofer.send(LockstepMessage.grant(round: round, horizon: horizon).datagram.bytes, to: a.air.socketPath)
        }
        #expect(fired.wait(forCount: 1, timeout: 0.5).isEmpty, "time does not run on a stranger's grant")
        #expect(a.air.statistics.ignored == 10)
    }
}

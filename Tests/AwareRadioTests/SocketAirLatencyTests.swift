import AwareCore
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// How long a frame takes from one SocketAir to another (two schedulers, as two processes
/// would have), and how long until its acknowledgement is back: one frame at a time, 1000
/// times, monotonic clock read at `transmit` and in the callbacks.
@Suite struct SocketAirLatencyTests {
    @Test func aFrameCrossesTheAirInWellUnderAMillisecondTypically() throws {
        let directory = TemporaryAirDirectory()
        let senderClock = WallClockScheduler()
        let receiverClock = WallClockScheduler()
        let sender = try SocketAir(
            path: directory.air,
            scheduler: senderClock,
            acknowledgementTimeout: .seconds(Int64(2))
        )
        let receiver = try SocketAir(path: directory.air, scheduler: receiverClock)
        senderClock.runInBackground()
        receiverClock.runInBackground()
        defer {
            sender.close()
            receiver.close()
            senderClock.stop()
            receiverClock.stop()
        }
        let arrivals = Inbox<UInt64>()
        let acknowledgements = Inbox<(UInt64, Bool)>()
        let port = try senderClock.sync { () throws(AirError) -> any AirPort in
            try sender.attach(
                StationConfiguration(addresses: [addressA], name: "sender"),
                receive: { _ in },
                transmitted: { acknowledgements.append((MonotonicClock.nanoseconds(), $0.acknowledged)) }
            )
        }
        try receiverClock.sync { () throws(AirError) in
            let listener = try receiver.attach(
                StationConfiguration(addresses: [addressB], name: "receiver"),
                receive: { _ in arrivals.append(MonotonicClock.nanoseconds()) },
                transmitted: { _ in }
            )
            listener.listeningChannels = [.channel6]
        }

        let count = 1_000
        var oneWay: [UInt64] = []
        var roundTrip: [UInt64] = []
        let frame = actionFrame(to: addressB, from: addressA)
        for index in 0..<count {
            let sentAt = senderClock.sync {
                let now = MonotonicClock.nanoseconds()
                port.transmit(TxRequest(frame: frame, channel: .channel6, cookie: UInt64(index)))
                return now
            }
            let arrived = arrivals.wait(forCount: index + 1)
            let acknowledged = acknowledgements.wait(forCount: index + 1)
            guard arrived.count == index + 1, acknowledged.count == index + 1 else { break }
            oneWay.append(arrived[index] - sentAt)
            roundTrip.append(acknowledged[index].0 - sentAt)
        }
        #expect(oneWay.count == count)
        #expect(acknowledgements.all.allSatisfy { $0.1 })
        let medianOneWay = Double(oneWay.sorted()[oneWay.count / 2]) / 1e3
        let medianRoundTrip = Double(roundTrip.sorted()[roundTrip.count / 2]) / 1e3
        let p99OneWay = Double(oneWay.sorted()[oneWay.count * 99 / 100]) / 1e3
        print(
            "socket air, \(count) frames: one-way median \(medianOneWay) µs (p99 \(p99OneWay) µs), "
                + "frame + ACK median \(medianRoundTrip) µs"
        )
        #expect(medianOneWay < 5_000)
        #expect(medianRoundTrip < 10_000)
    }
}

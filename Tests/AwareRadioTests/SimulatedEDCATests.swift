import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

@Suite("Simulated air: EDCA access categories and per-frame rates")
struct SimulatedEDCATests {
    @Test("a 1500-octet frame at 54 Mb/s takes 244 µs; its ACK goes at 24 Mb/s in 28 µs")
    func airtimeAt54() {
        // PSDU = 1500 + 4 (FCS) = 1504 octets; bits = 16 + 8 × 1504 + 6 = 12 054;
        // ⌈12 054 / 216⌉ = 56 symbols (55.8); 20 µs + 56 × 4 µs = 244 µs.
        #expect(OFDMRate(.mbps54).airtime(frameLength: 1500) == .microseconds(244))
        // ACK: 16 + 8 × 14 + 6 = 134 bits; ⌈134 / 96⌉ = 2 symbols; 20 + 8 = 28 µs.
        #expect(OFDMRate(.mbps54).controlResponseRate == .mbps24)
        #expect(OFDMRate.mbps24.airtime(frameLength: 10) == .microseconds(28))
    }

    @Test("TxRate maps onto the clause 17 OFDM rates; control responses use 6, 12 or 24 Mb/s")
    func rates() {
        let expected: [OFDMRate] = [.mbps6, .mbps9, .mbps12, .mbps18, .mbps24, .mbps36, .mbps48, .mbps54]
        #expect(TxRate.ofdmRates.map(OFDMRate.init) == expected)
        #expect(expected.map(\.txRate) == TxRate.ofdmRates)
        #expect(
            expected.map(\.controlResponseRate) == [
                .mbps6, .mbps6, .mbps12, .mbps12, .mbps24, .mbps24, .mbps24, .mbps24,
            ]
        )
        #expect(TxRate.mbps54.description == "54 Mb/s")
        #expect(TxRate(rawValue: 11).description == "5.5 Mb/s")
    }

    @Test("the EDCA presets are Table 9-155's")
    func presets() {
        #expect(ChannelAccess.voice == ChannelAccess(aifsn: 2, cwMin: 3, cwMax: 7))
        #expect(ChannelAccess.video == ChannelAccess(aifsn: 2, cwMin: 7, cwMax: 15))
        #expect(ChannelAccess.bestEffort == ChannelAccess(aifsn: 3, cwMin: 15, cwMax: 1023))
        #expect(ChannelAccess.background == ChannelAccess(aifsn: 7, cwMin: 15, cwMax: 1023))
        #expect(ChannelAccess.voice.nextWindow(after: 3) == 7)
        #expect(ChannelAccess.voice.nextWindow(after: 7) == 7)
        #expect(ChannelAccess(aifsn: 0, cwMin: -1, cwMax: -5) == ChannelAccess(aifsn: 1, cwMin: 0, cwMax: 0))
    }

    @Test("the link rate follows Table 17-18's minimum sensitivities")
    func linkRate() {
        #expect(LinkRate.select(signalDBm: -40) == .mbps54)
        #expect(LinkRate.select(signalDBm: -65) == .mbps54)
        #expect(LinkRate.select(signalDBm: -65.5) == .mbps48)
        #expect(LinkRate.select(signalDBm: -70) == .mbps36)
        #expect(LinkRate.select(signalDBm: -74) == .mbps24)
        #expect(LinkRate.select(signalDBm: -78) == .mbps12)
        #expect(LinkRate.select(signalDBm: -81) == .mbps9)
        #expect(LinkRate.select(signalDBm: -82) == .mbps6)
        #expect(LinkRate.select(signalDBm: -95) == .mbps6)
        #expect(LinkRate.select(signalDBm: -65, marginDB: 5) == .mbps36)
    }

    @Test("a frame with its own rate and AIFS: starts AIFS after idle, ends 244 µs later, ACK at 24 Mb/s")
    func rateAndAIFSOnTheAir() throws {
        let air = deterministicAir()
        let tap = RateTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2, at: .init(x: 3, y: 0))
        sender.port.transmit(
            TxRequest(
                frame: testFrame(to: receiver.address, from: sender.address, length: 1500),
                channel: .channel6,
                rate: .mbps54,
                access: ChannelAccess(aifsn: 7, cwMin: 0, cwMax: 0)
            )
        )
        air.virtualScheduler.runUntilIdle()
        // AIFS = 16 + 7 × 9 = 79 µs; frame 79 … 323; ACK 339 … 367.
        #expect(tap.seen.map(\.time) == [microseconds(79)])
        #expect(tap.seen.map(\.rate) == [.mbps54])
        #expect(receiver.receptions.map(\.info.timestamp) == [microseconds(323)])
        #expect(sender.statuses.map(\.timestamp) == [microseconds(367)])
        #expect(sender.statuses.map(\.acknowledged) == [true])
        #expect(air.statistics.airtime[.channel6] == .microseconds(244 + 28))
    }

    @Test("a frame without rate or access is timed exactly as DCF at the air's rate")
    func defaultsUnchanged() throws {
        let air = deterministicAir()
        let tap = RateTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2, at: .init(x: 3, y: 0))
        sender.send(to: receiver.address)
        air.virtualScheduler.runUntilIdle()
        // DIFS 34; 100 octets at 6 Mb/s 164 µs → 198; SIFS 16; ACK 44 µs at 6 Mb/s → 258.
        #expect(tap.seen.map(\.time) == [microseconds(34)])
        #expect(tap.seen.map(\.rate) == [nil])
        #expect(sender.statuses.map(\.timestamp) == [microseconds(258)])
    }

    @Test("a capture tap writes the frame's own rate into radiotap")
    func captureRate() throws {
        let air = deterministicAir()
        let tap = CaptureTap(format: .pcap)
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let frame = testFrame(to: .broadcast, from: sender.address)
        sender.port.transmit(TxRequest(frame: frame, channel: .channel6, rate: .mbps24))
        sender.send(to: .broadcast)
        air.virtualScheduler.runUntilIdle()
        #expect(tap.records.map(\.radiotap?.rate) == [48, 12])
    }

    @Test("taps see an ACK at the control response rate of the frame it answers")
    func acknowledgementRate() throws {
        let air = SimulatedAir(
            configuration: .init(contention: ContentionParameters(cwMin: 0, cwMax: 0), tapsSeeAcknowledgements: true)
        )
        let tap = CaptureTap(format: .pcap)
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2, at: .init(x: 3, y: 0))
        let frame = testFrame(to: receiver.address, from: sender.address)
        sender.port.transmit(TxRequest(frame: frame, channel: .channel6, rate: .mbps36))
        air.virtualScheduler.runUntilIdle()
        sender.send(to: receiver.address)
        air.virtualScheduler.runUntilIdle()
        // 36 Mb/s → ACK at 24 Mb/s (48); default-rate frame and its ACK → the tap's 6 Mb/s (12).
        #expect(tap.records.map(\.radiotap?.rate) == [72, 48, 12, 12])
        #expect(tap.records.map { $0.frame[0] } == [0xD0, 0xD4, 0xD0, 0xD4])
    }

    @Test("four saturated stations, one per access category: voice > video > best effort > background")
    func saturatedCategories() throws {
        let air = SimulatedAir(configuration: .init(seed: 7))
        let sink = try RecordingStation(air, 100)
        let categories: [ChannelAccess] = [.voice, .video, .bestEffort, .background]
        var senders: [RecordingStation] = []
        for (index, _) in categories.enumerated() {
            senders.append(try RecordingStation(air, UInt8(index + 1), at: .init(x: Double(index + 1), y: 0)))
        }
        let tap = RateTap()
        air.addTap(tap)
        for _ in 0..<8_000 {
            for (sender, access) in zip(senders, categories) {
                sender.port.transmit(
                    TxRequest(
                        frame: testFrame(to: sink.address, from: sender.address, length: 1000),
                        channel: .channel6,
                        rate: .mbps54,
                        access: access
                    )
                )
            }
        }
        air.virtualScheduler.run(until: Instant(nanoseconds: 2_000_000_000))

        // Access delay of a frame: from the instant it reached the head of its station's
        // queue (the previous frame's status) to its first transmission (Retry clear).
        var delivered: [Int] = []
        var meanDelay: [Double] = []
        for sender in senders {
            let firstAttempts = tap.seen.filter {
                Array($0.frame[10..<16]) == sender.address.octets && $0.frame[1] & 0x08 == 0
            }
            let heads = [Instant(nanoseconds: 0)] + sender.statuses.map(\.timestamp)
            let delays = zip(firstAttempts, heads).map { Double($0.time.nanoseconds - $1.nanoseconds) }
            delivered.append(sender.statuses.filter(\.acknowledged).count)
            meanDelay.append(delays.isEmpty ? .infinity : delays.reduce(0, +) / Double(delays.count))
        }
        #expect(delivered[0] > delivered[1] && delivered[1] > delivered[2] && delivered[2] > delivered[3])
        #expect(meanDelay[0] < meanDelay[1] && meanDelay[1] < meanDelay[2] && meanDelay[2] < meanDelay[3])
        // Seed 7 gives 5293 / 1277 / 100 / 22 frames and mean delays of 92 / 508 / 2031 /
        // 23 362 µs. A frame received just before the 2 s cut may still wait for its ACK.
        #expect((0...senders.count).contains(sink.receptions.count - delivered.reduce(0, +)))
    }
}

/// A tap that keeps each frame with the rate its sender chose.
final class RateTap: AirTap {
    struct Seen {
        var frame: [UInt8]
        var rate: TxRate?
        var time: Instant
    }
    var seen: [Seen] = []

    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
        Issue.record("the air should call the rate-aware method")
    }

    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, rate: TxRate?, at time: Instant) {
        seen.append(Seen(frame: frame, rate: rate, time: time))
    }
}

import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

@Suite("Simulated air: airtime (IEEE 802.11 clause 17 OFDM)")
struct SimulatedAirtimeTests {
    @Test("a 100-octet frame at 6 Mb/s takes 164 µs")
    func hundredOctets() {
        // PSDU = 100 + 4 (FCS) = 104 octets; bits = 16 (SERVICE) + 8 × 104 + 6 (tail) = 854;
        // symbols = ⌈854 / 24⌉ = 36 (35.58); 20 µs + 36 × 4 µs = 164 µs.
        #expect(OFDMRate.mbps6.airtime(frameLength: 100) == .microseconds(164))
    }

    @Test("an ACK (14 octets with FCS) at 6 Mb/s takes 44 µs")
    func ack() {
        // 16 + 8 × 14 + 6 = 134 bits; ⌈134 / 24⌉ = 6 symbols (5.58); 20 + 24 = 44 µs.
        #expect(OFDMRate.mbps6.airtime(psduLength: 14) == .microseconds(44))
        #expect(OFDMRate.mbps6.airtime(frameLength: 10) == .microseconds(44))
    }

    @Test("other lengths and rates")
    func others() {
        // 100 octets at 54 Mb/s: 854 bits / 216 = 3.95 → 4 symbols; 20 + 16 = 36 µs.
        #expect(OFDMRate.mbps54.airtime(frameLength: 100) == .microseconds(36))
        // Empty MPDU (FCS only): 16 + 32 + 6 = 54 bits → 3 symbols; 20 + 12 = 32 µs.
        #expect(OFDMRate.mbps6.airtime(frameLength: 0) == .microseconds(32))
        // 300 octets at 12 Mb/s: 16 + 8 × 304 + 6 = 2454 bits / 48 = 51.1 → 52; 20 + 208 = 228 µs.
        #expect(OFDMRate.mbps12.airtime(frameLength: 300) == .microseconds(228))
        // Either side of a symbol boundary at 24 bits/symbol: PSDU 7 octets is
        // 16 + 56 + 6 = 78 bits → 4 symbols (3.25); PSDU 6 is 70 bits → 3 symbols (2.92).
        #expect(OFDMRate.mbps6.airtime(psduLength: 7) == .microseconds(36))
        #expect(OFDMRate.mbps6.airtime(psduLength: 6) == .microseconds(32))
        #expect(OFDMRate.mbps6.radiotapRate == 12)
        #expect(OFDMRate.mbps6.description == "6 Mb/s OFDM")
    }

    @Test("on the air a frame starts DIFS after idle and arrives airtime later")
    func onTheAir() throws {
        let air = deterministicAir()
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2, at: .init(x: 3, y: 0))
        sender.send(to: .broadcast, length: 100)
        air.virtualScheduler.runUntilIdle()
        // Idle since 0: DIFS 34 µs, backoff 0 slots; first octet at 34 µs, last at 34 + 164.
        #expect(tap.seen.map(\.time) == [microseconds(34)])
        #expect(receiver.receptions.map(\.info.timestamp) == [microseconds(198)])
        #expect(sender.statuses == [TxStatus(cookie: 0, acknowledged: false, timestamp: microseconds(198))])
        #expect(air.statistics.airtime[.channel6] == .microseconds(164))
    }
}

import AwareWire
import Testing

@testable import AwareRadio

@Suite("Simulated air: log-distance path loss")
struct SimulatedPathLossTests {
    // Free space at 1 m: 20·log10(f_MHz) − 27.55.
    //   2437 MHz: 20 × 3.38686 − 27.55 = 67.737 − 27.55 = 40.187 dB
    //   5745 MHz: 20 × 3.75929 − 27.55 = 75.186 − 27.55 = 47.636 dB
    // At 10 m with n = 3: + 10 × 3 × log10(10) = + 30 dB.

    @Test("free-space loss at 1 m, and 30 dB more at 10 m with n = 3")
    func model() {
        let model = PathLossModel.indoor
        #expect(abs(model.loss(distance: 1, frequencyMHz: 2437) - 40.187) < 0.001)
        #expect(abs(model.loss(distance: 10, frequencyMHz: 2437) - 70.187) < 0.001)
        #expect(abs(model.loss(distance: 1, frequencyMHz: 5745) - 47.636) < 0.001)
        #expect(abs(model.loss(distance: 10, frequencyMHz: 5745) - 77.636) < 0.001)
        // Closer than d0 the loss stays PL(d0); free space (n = 2) adds 20 dB per decade.
        #expect(model.loss(distance: 0.1, frequencyMHz: 2437) == model.loss(distance: 1, frequencyMHz: 2437))
        #expect(abs(PathLossModel.freeSpace.loss(distance: 10, frequencyMHz: 2437) - 60.187) < 0.001)
        #expect(PathLossModel(referenceLossDB: 45).loss(distance: 10, frequencyMHz: 2437) == 75)
    }

    @Test("RSSI = 20 dBm − PL: −20/−50 dBm on channel 6 and −28/−58 dBm on 149 at 1/10 m")
    func rssiOnTheAir() throws {
        let air = SimulatedAir()
        let sender = try RecordingStation(air, 1, channels: [])
        let near = try RecordingStation(air, 2, at: .init(x: 0, y: 1), channels: [.channel6, .channel149])
        let far = try RecordingStation(air, 3, at: .init(x: 6, y: 8), channels: [.channel6, .channel149])
        sender.send(to: .broadcast, on: .channel6)
        sender.send(to: .broadcast, on: .channel149)
        air.virtualScheduler.runUntilIdle()
        // −20.187 → −20, −50.187 → −50, −27.636 → −28, −57.636 → −58.
        #expect(near.receptions.map(\.info.rssiDBm) == [-20, -28])
        #expect(far.receptions.map(\.info.rssiDBm) == [-50, -58])
        #expect(far.receptions.map(\.info.channel) == [.channel6, .channel149])
    }

    @Test("frames below −90 dBm are not heard")
    func sensitivity() throws {
        let air = SimulatedAir()
        let sender = try RecordingStation(air, 1)
        // 150 m: 20 − 40.187 − 30 × 2.1761 = −85.47 dBm, heard; 250 m: −92.13 dBm, not.
        let heard = try RecordingStation(air, 2, at: .init(x: 150, y: 0))
        let unheard = try RecordingStation(air, 3, at: .init(x: 250, y: 0))
        sender.send(to: .broadcast)
        air.virtualScheduler.runUntilIdle()
        #expect(heard.receptions.map(\.info.rssiDBm) == [-85])
        #expect(unheard.receptions.isEmpty)
        // On channel 149 the same 150 m costs 7.4 dB more: −92.9 dBm, not heard.
        heard.port.listeningChannels = [.channel149]
        sender.send(to: .broadcast, on: .channel149)
        air.virtualScheduler.runUntilIdle()
        #expect(heard.receptions.count == 1)
    }

    @Test("shadowing is fixed per link, the same both ways, and follows the seed")
    func shadowing() throws {
        func signals(seed: UInt64) throws -> (Double, Double) {
            let air = SimulatedAir(
                configuration: .init(seed: seed, pathLoss: PathLossModel(exponent: 3, shadowingSigmaDB: 8))
            )
            let a = try RecordingStation(air, 1)
            let b = try RecordingStation(air, 2, at: .init(x: 10, y: 0))
            let forward = try #require(air.signal(from: a.port, to: b.port, on: .channel6, powerDBm: 20))
            let backward = try #require(air.signal(from: b.port, to: a.port, on: .channel6, powerDBm: 20))
            return (forward, backward)
        }
        let first = try signals(seed: 1)
        #expect(first.0 == first.1)
        #expect(first.0 != -50.18711058369449)
        #expect(try signals(seed: 1) == first)
        #expect(try signals(seed: 2).0 != first.0)
    }
}

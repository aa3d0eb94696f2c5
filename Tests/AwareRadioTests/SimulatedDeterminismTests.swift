import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

@Suite("Simulated air: same seed, same bytes")
struct SimulatedDeterminismTests {
    /// Thirty stations on two channels, shadowing and loss on, broadcasts each 512 TU and
    /// unicasts to neighbours, for two simulated seconds.
    func scenario(seed: UInt64) throws -> (capture: [UInt8], statistics: SimulatedAir.Statistics, heard: [Int]) {
        let air = SimulatedAir(
            configuration: .init(
                seed: seed,
                pathLoss: PathLossModel(exponent: 3, shadowingSigmaDB: 6),
                frameErrorProbability: 0.1
            )
        )
        let tap = CaptureTap(format: .pcap)
        air.addTap(tap, at: .init(x: 3, y: 3))
        var stations: [RecordingStation] = []
        for index in 0..<30 {
            let position = StationConfiguration.Position(x: Double(index % 6) * 7, y: Double(index / 6) * 5)
            let channels: Set<NANChannel> = index % 3 == 0 ? [.channel149] : [.channel6, .channel149]
            stations.append(try RecordingStation(air, UInt8(index + 1), at: position, channels: channels))
        }
        let scheduler = air.virtualScheduler
        for (index, station) in stations.enumerated() {
            let neighbour = stations[(index + 1) % stations.count].address
            func tick() {
                station.send(to: .broadcast, length: 60 + index, on: index % 2 == 0 ? .channel6 : .channel149)
                station.send(to: neighbour, length: 80, on: .channel149)
                scheduler.schedule(after: .timeUnits(512)) { tick() }
            }
            scheduler.schedule(at: .zero) { tick() }
        }
        scheduler.run(until: Instant(nanoseconds: 2_000_000_000))
        return (tap.bytes, air.statistics, stations.map(\.receptions.count))
    }

    @Test("two runs with one seed write identical capture bytes; another seed differs")
    func sameSeed() throws {
        let first = try scenario(seed: 2026)
        let second = try scenario(seed: 2026)
        #expect(first.capture.count > 10_000)
        #expect(first.capture == second.capture)
        #expect(first.statistics == second.statistics)
        #expect(first.heard == second.heard)
        #expect(first.statistics.lostReceptions > 0)
        let other = try scenario(seed: 2027)
        #expect(other.capture != first.capture)
        #expect(other.heard != first.heard)
    }
}

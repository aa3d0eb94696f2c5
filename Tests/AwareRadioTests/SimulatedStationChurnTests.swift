import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

/// Stations that leave and others that join, again and again (a phone leaving the air and a new
/// one joining every other cycle of `aware-bench soak`): the air gives a departed station's
/// place to the next one, so it keeps no more places than stations were ever on it at once,
/// and the newcomer's links are measured where it stands, not where its predecessor stood.
@Suite("Simulated air: stations leaving and joining")
struct SimulatedStationChurnTests {
    @Test("a thousand stations joining after one another leave keep two places, not a thousand and one")
    func placesAreReused() throws {
        let air = deterministicAir()
        let fixed = try RecordingStation(air, 1)
        for round in 0..<1_000 {
            let visitor = try RecordingStation(air, UInt8(2 + round % 200))
            visitor.send(to: fixed.address, cookie: UInt64(round))
            air.virtualScheduler.runUntilIdle()
            #expect(visitor.statuses.last?.acknowledged == true)
            visitor.port.detach()
        }
        #expect(air.ports.count == 2)
        #expect(fixed.receptions.count == 1_000)
        #expect(air.stations.count == 1)
    }

    @Test("a newcomer in a departed station's place is heard at its own distance")
    func pathLossFollowsTheNewcomer() throws {
        let air = SimulatedAir()
        let fixed = try RecordingStation(air, 1)
        let near = try RecordingStation(air, 2, at: .init(x: 1, y: 0))
        near.send(to: fixed.address)
        air.virtualScheduler.runUntilIdle()
        let nearSignal = try #require(fixed.receptions.last?.info.rssiDBm)
        fixed.port.transmit(
            TxRequest(frame: testFrame(to: near.address, from: fixed.address), channel: .channel6, cookie: 1)
        )
        air.virtualScheduler.runUntilIdle()
        #expect(near.receptions.count == 1)
        near.port.detach()

        let far = try RecordingStation(air, 3, at: .init(x: 30, y: 0))
        #expect(far.port.index == near.port.index, "the newcomer takes the departed station's place")
        far.send(to: fixed.address)
        air.virtualScheduler.runUntilIdle()
        let farSignal = try #require(fixed.receptions.last?.info.rssiDBm)
        #expect(farSignal < nearSignal - 15, "30 m away is heard much weaker than 1 m: \(farSignal) vs \(nearSignal)")
        let expected = try #require(air.signal(from: far.port, to: fixed.port, on: .channel6, powerDBm: 20))
        #expect(farSignal == Int(expected.rounded()))
    }
}

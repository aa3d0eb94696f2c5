import AwareWire
import Testing

@testable import AwareRadio

/// The lockstep clock as a value: rounds close when every member reported, at the earliest
/// report plus the lookahead; time waits for a second member, and for a member that joins.
@Suite struct LockstepClockStateTests {
    typealias Output = LockstepClockState.Output

    @Test func roundsCloseAtTheEarliestReportPlusTheLookahead() {
        var clock = LockstepClockState()
        #expect(clock.handle(.register, from: "a") == [.send(.admit(round: 1, horizon: 0), to: "a")])
        // Alone, a member's report closes nothing: time waits for the other process.
        #expect(clock.handle(.report(round: 1, next: 5_000), from: "a").isEmpty)
        #expect(clock.handle(.register, from: "b") == [.send(.admit(round: 1, horizon: 0), to: "b")])
        #expect(clock.waitingFor == ["b"])
        let grants = clock.handle(.report(round: 1, next: 9_000), from: "b")
        // min(5 000, 9 000) + 20 000 (the 20 µs lookahead).
        #expect(
            grants == [
                .send(.grant(round: 2, horizon: 25_000), to: "a"), .send(.grant(round: 2, horizon: 25_000), to: "b"),
            ]
        )
        #expect(clock.waitingFor == ["a", "b"])
        // A report for another round is ignored; one member reporting twice counts once.
        #expect(clock.handle(.report(round: 1, next: 1), from: "a").isEmpty)
        #expect(clock.handle(.report(round: 2, next: 40_000), from: "a").isEmpty)
        #expect(clock.handle(.report(round: 2, next: 30_000), from: "a").isEmpty)
        #expect(clock.waitingFor == ["b"])
        #expect(
            clock.handle(.report(round: 2, next: 60_000), from: "b").first
                == .send(.grant(round: 3, horizon: 50_000), to: "a")
        )
    }

    @Test func nobodyWithWorkKeepsTheRoundOpenUntilSomeoneHasSome() {
        var clock = LockstepClockState()
        _ = clock.handle(.register, from: "a")
        _ = clock.handle(.register, from: "b")
        #expect(clock.handle(.report(round: 1, next: LockstepMessage.never), from: "a").isEmpty)
        #expect(clock.handle(.report(round: 1, next: LockstepMessage.never), from: "b").isEmpty)
        #expect(clock.handle(.report(round: 1, next: 100), from: "b").count == 2)
        #expect(clock.horizon == 20_100)
    }

    @Test func aMemberThatLeavesOrVanishesNoLongerHoldsTheRound() {
        var clock = LockstepClockState()
        for member in ["a", "b", "c"] { _ = clock.handle(.register, from: member) }
        _ = clock.handle(.report(round: 1, next: 1_000), from: "a")
        _ = clock.handle(.report(round: 1, next: 2_000), from: "b")
        #expect(
            clock.remove("c") == [
                .send(.grant(round: 2, horizon: 21_000), to: "a"), .send(.grant(round: 2, horizon: 21_000), to: "b"),
            ]
        )
        #expect(clock.handle(.leave, from: "b").isEmpty)
        #expect(clock.members.keys.sorted() == ["a"])
    }

    @Test func aLateMemberStartsAtTheHorizonOfTheRoundInProgress() {
        var clock = LockstepClockState()
        _ = clock.handle(.register, from: "a")
        _ = clock.handle(.register, from: "b")
        _ = clock.handle(.report(round: 1, next: 80_000), from: "a")
        _ = clock.handle(.report(round: 1, next: 90_000), from: "b")
        #expect(clock.handle(.register, from: "c") == [.send(.admit(round: 2, horizon: 100_000), to: "c")])
        _ = clock.handle(.report(round: 2, next: 110_000), from: "a")
        _ = clock.handle(.report(round: 2, next: 120_000), from: "b")
        #expect(clock.waitingFor == ["c"])
        #expect(clock.handle(.report(round: 2, next: 100_000), from: "c").count == 3)
        #expect(clock.horizon == 120_000)
    }

    /// The datagram (docs/reference/socket-air.md): type 4, the kind in the flags, time and round.
    @Test func messagesTravelAsSocketAirDatagrams() throws {
        let grant = LockstepMessage.grant(round: 7, horizon: 0x0102_0304_0506_0708)
        let bytes = grant.datagram.bytes
        #expect(Array(bytes[0..<12]) == [0x41, 0x57, 0x42, 0x31, 0x01, 0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(Array(bytes[12..<20]) == [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        #expect(Array(bytes[20..<28]) == [0x07, 0, 0, 0, 0, 0, 0, 0])
        #expect(bytes.count == 34)
        for message in [
            LockstepMessage.register, .admit(round: 1, horizon: 2), .report(round: 3, next: 4), grant, .leave, .probe,
        ] {
            #expect(LockstepMessage(try SocketAirDatagram(bytes: message.datagram.bytes)) == message)
        }
    }
}

import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import Testing

/// The one driver of every protocol machine: it arms, moves and disarms timers on the scheduler,
/// feeds a fired timer back as the machine's timer event, and hands transmissions and
/// notifications on in the order the machine returned them.
@Suite struct MachineDriverTests {
    /// A machine that does what each event says, and records what it was fed.
    struct Echo: ProtocolMachine {
        enum Event: Hashable {
            case script([MachineAction<String, Int, String>])
            case fired(Int)
            case draw
        }

        var fed: [(Event, Instant)] = []
        var drawn: [UInt64] = []

        mutating func handle(
            _ event: Event,
            now: Instant,
            rng: inout some RandomNumberGenerator
        ) -> [MachineAction<String, Int, String>] {
            fed.append((event, now))
            switch event {
            case .script(let actions): return actions
            case .fired(let timer): return [.notify("fired \(timer)")]
            case .draw:
                drawn.append(rng.next())
                return []
            }
        }

        static func timerEvent(_ timer: Int) -> Event { .fired(timer) }
    }

    final class Harness {
        let scheduler = VirtualScheduler(calendarOrigin: CalendarTime(unixSeconds: 0))
        var log: [String] = []
        lazy var driver = MachineDriver(
            Echo(),
            scheduler: scheduler,
            random: DeviceRandom(seed: 7),
            transmit: { [unowned self] in log.append("tx \($0)") },
            notify: { [unowned self] in log.append($0) }
        )
    }

    @Test func actionsAreCarriedOutInOrderAndTimersFireIntoTheMachine() {
        let harness = Harness()
        harness.driver.handle(
            .script([.transmit("a"), .arm(1, at: .zero + .seconds(2)), .notify("n"), .transmit("b")])
        )
        #expect(harness.log == ["tx a", "n", "tx b"])
        #expect(harness.driver.hasArmedTimers)
        harness.scheduler.run(until: .zero + .seconds(5))
        #expect(harness.log == ["tx a", "n", "tx b", "fired 1"])
        #expect(harness.driver.machine.fed.last?.1 == .zero + .seconds(2), "fed at the instant it was armed for")
        #expect(!harness.driver.hasArmedTimers)
    }

    @Test func armingAnArmedTimerMovesItAndCancelDisarmsIt() {
        let harness = Harness()
        harness.driver.handle(.script([.arm(1, at: .zero + .seconds(1)), .arm(2, at: .zero + .seconds(1))]))
        harness.driver.handle(.script([.arm(1, at: .zero + .seconds(3)), .cancel(2), .cancel(9)]))
        harness.scheduler.run(until: .zero + .seconds(2))
        #expect(harness.log.isEmpty, "timer 1 moved to 3 s, timer 2 cancelled")
        harness.scheduler.run(until: .zero + .seconds(4))
        #expect(harness.log == ["fired 1"])
    }

    @Test func stopDisarmsEveryTimer() {
        let harness = Harness()
        harness.driver.handle(.script([.arm(1, at: .zero + .seconds(1)), .arm(2, at: .zero + .seconds(2))]))
        harness.driver.stop()
        harness.scheduler.run(until: .zero + .seconds(3))
        #expect(harness.log.isEmpty)
        #expect(harness.scheduler.isIdle)
    }

    @Test func theOwnerMayFeedTheMachineFromANotification() {
        let scheduler = VirtualScheduler()
        var log: [String] = []
        var driver: MachineDriver<Echo>?
        driver = MachineDriver(
            Echo(),
            scheduler: scheduler,
            random: DeviceRandom(seed: 1),
            transmit: { log.append("tx \($0)") },
            notify: { note in
                log.append(note)
                if note == "decide" { driver?.handle(.script([.transmit("answer")])) }
            }
        )
        driver?.handle(.script([.notify("decide"), .transmit("after")]))
        #expect(log == ["decide", "tx answer", "tx after"])
        driver = nil
    }

    @Test func machinesDrawFromTheSharedGeneratorInTurn() {
        let scheduler = VirtualScheduler()
        let random = DeviceRandom(seed: 42)
        let first = MachineDriver(Echo(), scheduler: scheduler, random: random, transmit: { _ in }, notify: { _ in })
        let second = MachineDriver(Echo(), scheduler: scheduler, random: random, transmit: { _ in }, notify: { _ in })
        first.handle(.draw)
        second.handle(.draw)
        first.handle(.draw)
        var reference = SeededGenerator(seed: 42)
        let expected = (0..<3).map { _ in reference.next() }
        #expect(first.machine.drawn == [expected[0], expected[2]])
        #expect(second.machine.drawn == [expected[1]])
    }

    @Test func theSharedClockConvertsBothWays() {
        // The virtual scheduler's shared clock is its own, so instants pass through unchanged;
        // what matters is that a timer armed on it fires at that instant.
        let scheduler = VirtualScheduler()
        var log: [String] = []
        let driver = MachineDriver(
            Echo(),
            scheduler: scheduler,
            clock: .shared,
            random: DeviceRandom(seed: 1),
            transmit: { _ in },
            notify: { log.append($0) }
        )
        driver.handle(.script([.arm(5, at: .zero + .milliseconds(30))]))
        scheduler.run(until: .zero + .milliseconds(29))
        #expect(log.isEmpty)
        scheduler.run(until: .zero + .milliseconds(31))
        #expect(log == ["fired 5"])
        #expect(driver.now == scheduler.now)
    }
}

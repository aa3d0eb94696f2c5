import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

@Suite("VirtualScheduler")
struct SimulatedSchedulerTests {
    @Test("work runs in time order and now jumps to each event's time")
    func timeOrder() {
        let scheduler = VirtualScheduler()
        var log: [(String, UInt64)] = []
        for (name, time) in [("c", 30), ("a", 10), ("b", 20)] as [(String, UInt64)] {
            scheduler.schedule(at: microseconds(time)) { log.append((name, scheduler.now.nanoseconds)) }
        }
        #expect(scheduler.now == .zero)
        #expect(scheduler.runUntilIdle() == 3)
        #expect(log.map(\.0) == ["a", "b", "c"])
        #expect(log.map(\.1) == [10_000, 20_000, 30_000])
        #expect(scheduler.now == microseconds(30))
        #expect(scheduler.executedCount == 3)
    }

    @Test("work due at the same instant runs in scheduling order, work added meanwhile after it")
    func stableTies() {
        let scheduler = VirtualScheduler()
        var order: [Int] = []
        for index in 0..<200 {
            scheduler.schedule(at: microseconds(5)) {
                order.append(index)
                if index == 0 { scheduler.schedule(at: scheduler.now) { order.append(-1) } }
            }
        }
        scheduler.schedule(at: microseconds(4)) { order.append(-2) }
        scheduler.runUntilIdle()
        #expect(order == [-2] + Array(0..<200) + [-1])
    }

    @Test("work scheduled in the past runs at now, after the work already due")
    func pastWork() {
        let scheduler = VirtualScheduler(start: microseconds(100))
        var times: [Instant] = []
        scheduler.schedule(at: microseconds(100)) { times.append(scheduler.now) }
        scheduler.schedule(at: microseconds(3)) { times.append(scheduler.now) }
        scheduler.runUntilIdle()
        #expect(times == [microseconds(100), microseconds(100)])
    }

    @Test("cancelled work never runs; cancelling twice or after running does nothing")
    func cancellation() {
        let scheduler = VirtualScheduler()
        var ran: [String] = []
        let a = scheduler.schedule(at: microseconds(1)) { ran.append("a") }
        let b = scheduler.schedule(at: microseconds(2)) { ran.append("b") }
        scheduler.schedule(at: microseconds(3)) { ran.append("c") }
        scheduler.cancel(b)
        scheduler.cancel(b)
        #expect(scheduler.pendingCount == 2)
        #expect(scheduler.step())
        #expect(ran == ["a"])
        // a's slot is free again; its stale handle must not cancel the work that reuses it.
        scheduler.schedule(at: microseconds(4)) { ran.append("d") }
        scheduler.cancel(a)
        scheduler.runUntilIdle()
        #expect(ran == ["a", "c", "d"])
        #expect(!scheduler.step())
        #expect(scheduler.isIdle)
    }

    @Test("run(until:) stops at its instant even when cancelled work is due before it")
    func runUntilPastACancelledEntry() {
        // A timer moved later leaves its cancelled entry at the old time: running to a point
        // between the two must skip the entry and stop, not run the moved work early.
        let scheduler = VirtualScheduler()
        var ran: [Instant] = []
        let early = scheduler.schedule(at: microseconds(10)) { ran.append(scheduler.now) }
        scheduler.cancel(early)
        scheduler.schedule(at: microseconds(30)) { ran.append(scheduler.now) }
        scheduler.run(until: microseconds(20))
        #expect(ran.isEmpty)
        #expect(scheduler.now == microseconds(20))
        scheduler.run(until: microseconds(40))
        #expect(ran == [microseconds(30)])
    }

    @Test("work may cancel later work from inside a step")
    func cancelFromWork() {
        let scheduler = VirtualScheduler()
        var ran: [Int] = []
        var later: ScheduledWork?
        scheduler.schedule(at: microseconds(1)) {
            ran.append(1)
            if let later { scheduler.cancel(later) }
        }
        later = scheduler.schedule(at: microseconds(2)) { ran.append(2) }
        scheduler.runUntilIdle()
        #expect(ran == [1])
        #expect(scheduler.now == microseconds(1))
    }

    @Test("many cancellations compact the heap without changing the order")
    func compaction() {
        let scheduler = VirtualScheduler()
        var generator = SeededGenerator(seed: 3)
        var handles: [(ScheduledWork, UInt64)] = []
        var ran: [UInt64] = []
        for index in 0..<10_000 {
            let time = generator.next() % 1_000_000
            let key = time << 16 | UInt64(index)
            handles.append((scheduler.schedule(at: Instant(nanoseconds: time)) { ran.append(key) }, key))
        }
        var kept: [UInt64] = []
        for (offset, (handle, key)) in handles.enumerated() {
            if offset % 10 == 0 { kept.append(key) } else { scheduler.cancel(handle) }
        }
        #expect(scheduler.pendingCount == 1_000)
        scheduler.runUntilIdle()
        #expect(ran == kept.sorted())
    }

    @Test("run(until:) runs what is due by then, including work it adds, and leaves now there")
    func runUntil() {
        let scheduler = VirtualScheduler()
        var ran: [UInt64] = []
        func tick() {
            ran.append(scheduler.now.nanoseconds / 1_000)
            scheduler.schedule(after: .microseconds(10)) { tick() }
        }
        scheduler.schedule(at: .zero) { tick() }
        scheduler.run(until: microseconds(35))
        #expect(ran == [0, 10, 20, 30])
        #expect(scheduler.now == microseconds(35))
        #expect(scheduler.nextEventTime == microseconds(40))
        scheduler.run(for: .microseconds(10))
        #expect(ran == [0, 10, 20, 30, 40])
        #expect(scheduler.now == microseconds(45))
    }

    @Test("runUntilIdle stops at its limit when work re-arms itself forever")
    func idleLimit() {
        let scheduler = VirtualScheduler()
        func again() { scheduler.schedule(after: .microseconds(1)) { again() } }
        again()
        #expect(scheduler.runUntilIdle(limit: 500) == 500)
        #expect(!scheduler.isIdle)
        #expect(scheduler.now == microseconds(500))
        let quiet = VirtualScheduler()
        quiet.schedule(at: microseconds(7)) {}
        #expect(quiet.runUntilIdle(limit: 500) == 1)
        #expect(quiet.isIdle)
    }
}

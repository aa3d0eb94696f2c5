import AwareCore
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// Collects values from other threads and lets a test wait for them without sleeping.
final class Inbox<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var items: [Element] = []

    func append(_ item: Element) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    var all: [Element] {
        condition.lock()
        defer { condition.unlock() }
        return items
    }

    /// Waits until `predicate` holds for what arrived, or `timeout` seconds pass; returns
    /// what arrived either way (the caller's #expect judges it).
    @discardableResult
    func wait(timeout: Double = 5, until predicate: ([Element]) -> Bool) -> [Element] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(items) && condition.wait(until: deadline) {}
        return items
    }

    @discardableResult
    func wait(forCount count: Int, timeout: Double = 5) -> [Element] {
        wait(timeout: timeout) { $0.count >= count }
    }
}

@Suite struct WallClockSchedulerTests {
    @Test func runsWorkInTimeOrderAndSameInstantInSchedulingOrder() {
        let scheduler = WallClockScheduler()
        scheduler.runInBackground()
        defer { scheduler.stop() }
        let ran = Inbox<(String, Instant, Instant)>()
        scheduler.sync {
            let start = scheduler.now
            for (name, delay) in [("c", 12), ("a", 4), ("b", 4), ("now", 0)] {
                let due = start + .milliseconds(Int64(delay))
                scheduler.schedule(at: due) { ran.append((name, due, scheduler.now)) }
            }
            scheduler.schedule(at: .zero) { ran.append(("past", .zero, scheduler.now)) }
        }
        let order = ran.wait(forCount: 5)
        #expect(order.map(\.0) == ["past", "now", "a", "b", "c"])
        for (name, due, at) in order {
            #expect(at >= due, "\(name) ran at \(at), before \(due)")
        }
    }

    @Test func cancelledWorkNeverRuns() {
        let scheduler = WallClockScheduler()
        scheduler.runInBackground()
        defer { scheduler.stop() }
        let ran = Inbox<String>()
        scheduler.sync {
            let doomed = scheduler.schedule(after: .milliseconds(2)) { ran.append("cancelled") }
            scheduler.schedule(after: .milliseconds(5)) { ran.append("kept") }
            scheduler.cancel(doomed)
            scheduler.cancel(doomed)
        }
        #expect(ran.wait(forCount: 1) == ["kept"])
        scheduler.sync {}
        #expect(ran.all == ["kept"])
    }

    @Test func soonerWorkWakesAnExecutorWaitingForLaterWork() {
        let scheduler = WallClockScheduler()
        scheduler.runInBackground()
        defer { scheduler.stop() }
        let ran = Inbox<String>()
        scheduler.schedule(after: .seconds(Int64(30))) { ran.append("late") }
        scheduler.sync {}
        scheduler.sync { scheduler.schedule(after: .milliseconds(3)) { ran.append("soon") } }
        #expect(ran.wait(forCount: 1, timeout: 3) == ["soon"])
    }

    @Test func postedWorkRunsOnTheExecutorInOrderPerThread() {
        let scheduler = WallClockScheduler()
        scheduler.runInBackground()
        defer { scheduler.stop() }
        let ran = Inbox<(Int, Int, Bool)>()
        let threads = 4
        let perThread = 100
        for thread in 0..<threads {
            Thread {
                for index in 0..<perThread {
                    scheduler.post { ran.append((thread, index, scheduler.isExecutorThread)) }
                }
            }.start()
        }
        let all = ran.wait(forCount: threads * perThread)
        #expect(all.count == threads * perThread)
        #expect(all.allSatisfy { $0.2 })
        for thread in 0..<threads {
            #expect(all.filter { $0.0 == thread }.map(\.1) == Array(0..<perThread))
        }
        #expect(!scheduler.isExecutorThread)
    }

    @Test func syncReturnsThrowsAndNestsWithoutDeadlock() {
        struct Refused: Error, Equatable {}
        let scheduler = WallClockScheduler()
        scheduler.runInBackground()
        defer { scheduler.stop() }
        let value = scheduler.sync { scheduler.sync { scheduler.isExecutorThread ? 42 : 0 } }
        #expect(value == 42)
        #expect(throws: Refused()) {
            try scheduler.sync { () throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test func runOwnsTheCallingThreadUntilStop() {
        let scheduler = WallClockScheduler()
        let ran = Inbox<Bool>()
        scheduler.schedule(after: .milliseconds(10)) {
            ran.append(scheduler.isExecutorThread)
            scheduler.stop()
        }
        scheduler.run()
        #expect(ran.all == [true])
        #expect(scheduler.now >= Instant(nanoseconds: 10_000_000))
        #expect(!scheduler.isExecutorThread)
    }

    @Test func nowStartsAtZeroAndFollowsTheMonotonicClock() {
        let scheduler = WallClockScheduler()
        let first = scheduler.now
        #expect(first < Instant(nanoseconds: 1_000_000_000))
        var previous = first
        for _ in 0..<1_000 {
            let next = scheduler.now
            #expect(next >= previous)
            previous = next
        }
    }
}

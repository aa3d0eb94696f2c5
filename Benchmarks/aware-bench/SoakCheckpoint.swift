import AwareCore
import AwareWire

/// What `soak` measures at a checkpoint: always at the boundary of an even cycle, so the
/// phone is in the same place (on the air, idle, subscribed) at every one and the counts are
/// comparable.
struct SoakCheckpoint {
    var virtualHours: Double
    var cycles: Int
    var failed: Int
    var residentOctets: UInt64
    /// Work scheduled on the VirtualScheduler and neither run nor cancelled, lowest and highest
    /// over the last discovery-window period (512 TU) before the checkpoint: a single sample
    /// would depend on where in the period it fell (a window open or not).
    var pendingTimers: ClosedRange<Int>
    var cpuSeconds: Double
    var wallSeconds: Double
    /// Live state, by name: what should not grow with cycles.
    var state: [(String, Int)]
    /// Records kept by design, bounded but filling up over the first cycles: printed, not
    /// judged flat.
    var history: [(String, Int)]

    var residentMegabytes: Double { Double(residentOctets) / 1_048_576 }

    var timersText: String { "\(pendingTimers.lowerBound)-\(pendingTimers.upperBound)" }

    var line: String {
        let counts = (state + history).map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        return "  \(BenchSupport.fixed(virtualHours, 2).leftPadded(6)) h  cycles \(String(cycles).leftPadded(5)) "
            + "(failed \(failed))  RSS \(BenchSupport.fixed(residentMegabytes, 1)) MB  "
            + "timers \(timersText)  CPU \(BenchSupport.fixed(cpuSeconds, 1)) s  "
            + "wall \(BenchSupport.fixed(wallSeconds, 1)) s  [\(counts)]"
    }

    var json: JSONValue {
        .object(
            [
                ("virtualHours", BenchSupport.json(virtualHours, 4)), ("cycles", .unsigned(UInt64(cycles))),
                ("failed", .unsigned(UInt64(failed))), ("rssMB", BenchSupport.json(residentMegabytes, 2)),
                ("pendingTimersLowest", .unsigned(UInt64(pendingTimers.lowerBound))),
                ("pendingTimersHighest", .unsigned(UInt64(pendingTimers.upperBound))),
                ("cpuSeconds", BenchSupport.json(cpuSeconds, 2)),
                ("wallSeconds", BenchSupport.json(wallSeconds, 2)),
            ] + (state + history).map { ($0.0, JSONValue.unsigned(UInt64(max(0, $0.1)))) }
        )
    }
}

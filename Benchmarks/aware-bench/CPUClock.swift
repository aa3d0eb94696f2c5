import Foundation

/// CPU time of this process (user + system, CLOCK_PROCESS_CPUTIME_ID): what the pairing and
/// PT benchmarks report, so that a busy machine slows the wall clock but not the figure.
/// aware-bench measures on one thread, so the process's CPU time is the measured work's.
enum CPUClock {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The CPU seconds of each of `iterations` calls of `body`, after `warmUp` untimed calls
    /// (the first call pays for lazily loaded tables and page faults).
    static func samples(iterations: Int, warmUp: Int = 2, _ body: (Int) throws -> Void) rethrows -> [Double] {
        for index in 0..<warmUp { try body(-1 - index) }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<iterations {
            let start = seconds()
            try body(index)
            samples.append(seconds() - start)
        }
        return samples
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

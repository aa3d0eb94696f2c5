import Glibc

/// CLOCK_MONOTONIC in nanoseconds: never jumps when someone sets the date, so timers and
/// timeouts measured with it are immune to NTP steps. It counts from boot and stops during
/// suspend, which is what a radio's timers do too.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }

    /// CLOCK_REALTIME as nanoseconds since the Unix epoch: the one clock every process on a
    /// machine shares, so socket-air timestamps from different processes can be compared.
    static func unixNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
}

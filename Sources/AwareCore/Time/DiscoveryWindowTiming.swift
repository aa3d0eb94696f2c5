/// When discovery windows happen on a cluster's timeline (nan-wire-reference.md 1.4): every
/// 512 TU, 16 TU long, starting when the synchronized TSF is a multiple of 512 TU on channel
/// 6; on channel 149 the window starts 128 TU (slot 8) later.
public enum DiscoveryWindowTiming {
    public static let period = Interval.timeUnits(512)
    public static let length = Interval.timeUnits(16)
    /// Offset of the 5 GHz window from the 2.4 GHz window (MediaTek NAN_5G_DW_INDEX 8 × 16 TU).
    public static let offset5GHz = Interval.timeUnits(128)
    /// DW0 repeats every 16 windows (8192 TU); unverified against the spec (reference 1.4, 7.2).
    public static let windowsPerDW0 = 16

    /// The start of the first window on `channel` at or after `tsf` (µs on the cluster's TSF),
    /// as a TSF value in µs.
    public static func nextWindowStart(atOrAfter tsf: UInt64, on channel: NANChannel) -> UInt64 {
        let periodMicroseconds = UInt64(period.nanoseconds / 1_000)
        let offset = channel.is5GHz ? UInt64(offset5GHz.nanoseconds / 1_000) : 0
        guard tsf > offset else { return offset }
        let sinceFirst = tsf - offset
        let windows = (sinceFirst + periodMicroseconds - 1) / periodMicroseconds
        return offset + windows * periodMicroseconds
    }

    /// Whether `tsf` (µs) falls inside a window on `channel`.
    public static func isInWindow(_ tsf: UInt64, on channel: NANChannel) -> Bool {
        let periodMicroseconds = UInt64(period.nanoseconds / 1_000)
        let offset = channel.is5GHz ? UInt64(offset5GHz.nanoseconds / 1_000) : 0
        guard tsf >= offset else { return false }
        return (tsf - offset) % periodMicroseconds < UInt64(length.nanoseconds / 1_000)
    }
}

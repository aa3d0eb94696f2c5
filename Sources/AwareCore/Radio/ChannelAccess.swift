/// The EDCA parameters one frame contends with (IEEE 802.11-2020 10.23.2): it waits
/// AIFS = aSIFSTime + AIFSN × aSlotTime of idle medium, then a backoff of 0…CW slots, CW
/// starting at CWmin and doubling up to CWmax after each failed attempt.
///
/// The presets are the default EDCA Parameter Set of a non-AP station (IEEE 802.11-2020
/// Table 9-155, with aCWmin 15 and aCWmax 1023 of the OFDM PHYs), the same numbers as
/// AwareProtocol's `AccessCategory.edca`.
public struct ChannelAccess: Hashable, Sendable {
    /// Arbitration interframe space number: slots after SIFS before the backoff counts.
    public var aifsn: Int
    public var cwMin: Int
    public var cwMax: Int

    /// Negative values become 0, AIFSN below 1 becomes 1 and CWmax is at least CWmin, so
    /// every value describes a schedule the air can run.
    public init(aifsn: Int, cwMin: Int, cwMax: Int) {
        self.aifsn = max(1, aifsn)
        self.cwMin = max(0, cwMin)
        self.cwMax = max(self.cwMin, cwMax)
    }

    /// AC_VO: AIFSN 2, CW 3…7.
    public static let voice = ChannelAccess(aifsn: 2, cwMin: 3, cwMax: 7)
    /// AC_VI: AIFSN 2, CW 7…15.
    public static let video = ChannelAccess(aifsn: 2, cwMin: 7, cwMax: 15)
    /// AC_BE: AIFSN 3, CW 15…1023.
    public static let bestEffort = ChannelAccess(aifsn: 3, cwMin: 15, cwMax: 1023)
    /// AC_BK: AIFSN 7, CW 15…1023.
    public static let background = ChannelAccess(aifsn: 7, cwMin: 15, cwMax: 1023)

    /// The window after a failed attempt: CW ← min(2·(CW + 1) − 1, CWmax) (10.23.2.4).
    public func nextWindow(after window: Int) -> Int {
        min(2 * (window + 1) - 1, cwMax)
    }
}

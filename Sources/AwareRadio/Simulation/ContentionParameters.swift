import AwareCore
import AwareWire

/// The CSMA/CA (DCF) timing the simulated air applies on every channel: OFDM PHY
/// characteristics of IEEE 802.11-2020 Table 17-21 and the backoff rules of 10.3.
public struct ContentionParameters: Hashable, Sendable {
    /// aSlotTime: 9 µs.
    public var slotTime: Interval
    /// aSIFSTime: 16 µs, the gap before an ACK.
    public var sifs: Interval
    /// DIFS = aSIFSTime + 2 × aSlotTime = 34 µs (10.3.2.3.5): the idle time a station waits
    /// before counting down its backoff.
    public var difs: Interval
    /// How long a sender waits for an ACK to start: aSIFSTime + aSlotTime +
    /// aRxPHYStartDelay (20 µs) = 45 µs (10.3.2.9).
    public var ackTimeout: Interval
    /// aCWmin: the first contention window, 15 slots.
    public var cwMin: Int
    /// aCWmax: the window stops doubling at 1023 slots.
    public var cwMax: Int

    public init(
        slotTime: Interval = .microseconds(9),
        sifs: Interval = .microseconds(16),
        difs: Interval = .microseconds(34),
        ackTimeout: Interval = .microseconds(45),
        cwMin: Int = 15,
        cwMax: Int = 1023
    ) {
        self.slotTime = slotTime
        self.sifs = sifs
        self.difs = difs
        self.ackTimeout = ackTimeout
        self.cwMin = max(0, cwMin)
        self.cwMax = max(self.cwMin, cwMax)
    }

    /// The window after a failed attempt: CW ← min(2·(CW + 1) − 1, CWmax) (10.3.3).
    public func nextWindow(after window: Int) -> Int {
        min(2 * (window + 1) - 1, cwMax)
    }
}

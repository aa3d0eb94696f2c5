import AwareCore
import AwareWire

/// One discovery window of a cluster on one channel, in local time: what the synchronization
/// machine tells the discovery machine so that it sends SDFs only inside windows, with
/// A3 = the Cluster ID (nan-wire-reference.md 1.3, 1.4).
public struct DiscoveryWindow: Hashable, Sendable {
    public var channel: NANChannel
    public var clusterID: MACAddress
    public var start: Instant
    public var end: Instant

    public init(channel: NANChannel, clusterID: MACAddress, start: Instant, end: Instant) {
        self.channel = channel
        self.clusterID = clusterID
        self.start = start
        self.end = end
    }

    public func contains(_ instant: Instant) -> Bool { instant >= start && instant < end }
}

/// When a frame for a discovery window goes out. Every station of a cluster sees the window
/// open at the same instant; if each sent its SDFs and sync beacon right then, CSMA/CA from
/// CW 15 could not separate a crowd and nearly every frame would collide. Real NAN devices
/// contend for the medium throughout the 16 TU window (nan-wire-reference.md 1.4: sync beacons
/// and SDFs are sent in DWs), so each frame here starts at a uniformly random instant in the
/// window, drawn from the machine's own generator, leaving the last `margin` of the window for
/// the frame's airtime and backoff so that it still ends inside the window.
enum WindowContention {
    /// Room left at the end of a 16 TU window: a few hundred octets at basic rate take well
    /// under 1 TU, backoff a few slots more; 4 TU is generous for both.
    static let margin = Interval.timeUnits(4)

    /// The last instant a frame may start in `window`.
    static func latestStart(in window: DiscoveryWindow) -> Instant {
        window.end + Interval(nanoseconds: -margin.nanoseconds)
    }

    /// A uniformly random instant in [max(now, window start), latest start); `now` itself when
    /// the window is (almost) over, so a frame due now is never held past its window.
    static func transmitTime(
        in window: DiscoveryWindow,
        after now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> Instant {
        let earliest = max(now, window.start)
        let latest = latestStart(in: window)
        guard latest > earliest else { return earliest }
        let offset = UInt64.random(in: 0..<(latest.nanoseconds - earliest.nanoseconds), using: &rng)
        return Instant(nanoseconds: earliest.nanoseconds + offset)
    }
}

import AwareCore
import AwareWire

extension SynchronizationEngine {
    mutating func fire(
        _ timer: SynchronizationTimer,
        membership: inout ClusterMembership,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [SynchronizationAction]
    ) {
        switch timer {
        case .scanEnd:
            break
        case .windowStart(let channel):
            startWindow(on: channel, membership: &membership, now: now, rng: &rng, actions: &actions)
        case .windowEnd(let channel):
            endWindow(on: channel, membership: &membership, now: now, actions: &actions)
        case .syncBeacon(let channel):
            guard membership.openWindows[channel] != nil, membership.role.sendsSyncBeacons else { return }
            actions.append(.transmit(beacon(.sync, membership: &membership, now: now, channel: channel)))
        case .discoveryBeacon:
            guard membership.role == .master else { return }
            // Discovery beacons go out between windows (OpenNAN), on the 2.4 GHz discovery channel.
            if !DiscoveryWindowTiming.isInWindow(membership.tsf(at: now), on: .channel6) {
                actions.append(.transmit(beacon(.discovery, membership: &membership, now: now, channel: .channel6)))
            }
            actions.append(.arm(.discoveryBeacon, at: now + configuration.discoveryBeaconInterval))
        }
    }

    /// A window is 16 TU every 512 TU (1.4). The next start is computed from the TSF, not by
    /// adding the period, so that a TSF adopted on a merge moves every later window. The sync
    /// beacon contends for the window like the SDFs do (``WindowContention``); its Timestamp is
    /// taken when it goes out.
    private mutating func startWindow(
        on channel: NANChannel,
        membership: inout ClusterMembership,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [SynchronizationAction]
    ) {
        let window = DiscoveryWindow(
            channel: channel,
            clusterID: membership.clusterID,
            start: now,
            end: now + DiscoveryWindowTiming.length
        )
        membership.openWindows[channel] = window
        actions.append(.notify(.listen([channel])))
        actions.append(.arm(.windowEnd(channel), at: window.end))
        let next = DiscoveryWindowTiming.nextWindowStart(atOrAfter: membership.tsf(at: now) + 1, on: channel)
        actions.append(.arm(.windowStart(channel), at: max(now, membership.instant(atTSF: next))))
        if membership.role.sendsSyncBeacons {
            let at = WindowContention.transmitTime(in: window, after: now, rng: &rng)
            actions.append(.arm(.syncBeacon(channel), at: at))
        }
        actions.append(.notify(.discoveryWindowStarted(window)))
    }

    private mutating func endWindow(
        on channel: NANChannel,
        membership: inout ClusterMembership,
        now: Instant,
        actions: inout [SynchronizationAction]
    ) {
        guard let window = membership.openWindows.removeValue(forKey: channel) else { return }
        actions.append(.notify(.listen([.channel6])))
        actions.append(.notify(.discoveryWindowEnded(window)))
        if channel == .channel6 {
            membership.windowCount &+= 1
            electMaster(&membership, now: now, actions: &actions)
            membership.peers = [:]
        }
    }
}

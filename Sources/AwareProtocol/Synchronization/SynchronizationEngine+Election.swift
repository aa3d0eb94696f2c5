import AwareCore
import AwareWire

extension SynchronizationEngine {
    /// Anchor master selection on a beacon of our cluster (after OpenNAN
    /// `nan_anchor_master_selection`, 1.4): a higher AMR replaces ours with one more hop; the
    /// same AMR with a fresher AMBTT or a shorter path refreshes it. A lower AMR is ignored.
    func selectAnchorMaster(
        _ heard: HeardBeacon,
        membership: inout ClusterMembership,
        actions: inout [SynchronizationAction]
    ) {
        let theirs = heard.cluster
        if theirs.anchorMasterRank > membership.anchorMasterRank {
            membership.anchorMasterRank = theirs.anchorMasterRank
            membership.hopCount = theirs.hopCountToAnchorMaster &+ 1
            membership.anchorMasterBeaconTransmissionTime = theirs.anchorMasterBeaconTransmissionTime
            membership.lastAnchorMasterUpdate = membership.windowCount
            actions.append(.notify(.anchorMasterChanged(status(of: membership))))
        } else if theirs.anchorMasterRank == membership.anchorMasterRank, membership.anchorMasterRank != masterRank {
            let age = Int32(
                bitPattern: theirs.anchorMasterBeaconTransmissionTime
                    &- membership.anchorMasterBeaconTransmissionTime
            )
            if age > 0 {
                membership.anchorMasterBeaconTransmissionTime = theirs.anchorMasterBeaconTransmissionTime
                membership.lastAnchorMasterUpdate = membership.windowCount
            }
            if theirs.hopCountToAnchorMaster &+ 1 < membership.hopCount {
                membership.hopCount = theirs.hopCountToAnchorMaster &+ 1
            }
        }
    }

    /// At the end of each channel 6 window, over the sync beacons heard in it (OpenNAN
    /// `nan_master_election`, 1.4): a master with one close (RSSI > RSSI_close) or three middle
    /// (RSSI > RSSI_middle) higher-ranked peers becomes non-master sync; a non-master with
    /// neither becomes master. A master whose rank beats the AMR, or whose anchor master has been
    /// silent for `anchorMasterExpiryWindows`, becomes anchor master.
    func electMaster(_ membership: inout ClusterMembership, now: Instant, actions: inout [SynchronizationAction]) {
        let ownRank = masterRank
        let higher = membership.peers.values.filter { $0.masterRank > ownRank }
        let close = higher.filter { $0.rssiDBm > configuration.closeRSSIDBm }.count
        let middle = higher.filter { $0.rssiDBm > configuration.middleRSSIDBm }.count
        let outranked = close >= 1 || middle >= 3
        switch membership.role {
        case .master where outranked:
            membership.role = .nonMasterSync
            actions.append(.cancel(.discoveryBeacon))
            actions.append(.notify(.roleChanged(status(of: membership))))
        case .nonMasterSync where !outranked, .nonMasterNonSync where !outranked:
            membership.role = .master
            actions.append(.arm(.discoveryBeacon, at: now + configuration.discoveryBeaconInterval))
            actions.append(.notify(.roleChanged(status(of: membership))))
        default:
            break
        }
        let expired =
            membership.anchorMasterRank != ownRank
            && membership.windowCount &- membership.lastAnchorMasterUpdate > configuration.anchorMasterExpiryWindows
        if membership.role == .master && ownRank > membership.anchorMasterRank || expired {
            if membership.role != .master {
                membership.role = .master
                actions.append(.arm(.discoveryBeacon, at: now + configuration.discoveryBeaconInterval))
            }
            membership.anchorMasterRank = ownRank
            membership.hopCount = 0
            membership.anchorMasterBeaconTransmissionTime = UInt32(truncatingIfNeeded: membership.tsf(at: now))
            actions.append(.notify(.anchorMasterChanged(status(of: membership))))
        }
    }
}

import AwareCore
import AwareWire

/// The two NAN beacons (nan-wire-reference.md 1.4): Beacon Interval 512 in DWs, 100 outside.
enum NANBeaconKind {
    case sync
    case discovery

    var beaconInterval: UInt16 {
        switch self {
        case .sync: NANBeacon.syncBeaconInterval
        case .discovery: NANBeacon.discoveryBeaconInterval
        }
    }
}

extension SynchronizationEngine {
    /// A1 broadcast, A2 own NMI, A3 Cluster ID; Timestamp = cluster TSF; Master Indication and
    /// Cluster attributes (1.4, 2.3). The anchor master stamps the AMBTT with its own TSF.
    mutating func beacon(
        _ kind: NANBeaconKind,
        membership: inout ClusterMembership,
        now: Instant,
        channel: NANChannel
    ) -> TxRequest {
        let tsf = membership.tsf(at: now)
        if membership.anchorMasterRank == masterRank {
            membership.anchorMasterBeaconTransmissionTime = UInt32(truncatingIfNeeded: tsf)
        }
        let attributes: [NANAttribute] = [
            .masterIndication(
                MasterIndicationAttribute(masterPreference: configuration.masterPreference, randomFactor: randomFactor)
            ),
            .cluster(
                ClusterAttribute(
                    anchorMasterRank: membership.anchorMasterRank,
                    hopCountToAnchorMaster: membership.hopCount,
                    anchorMasterBeaconTransmissionTime: membership.anchorMasterBeaconTransmissionTime
                )
            ),
        ]
        let frame = ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.beacon),
                address1: .broadcast,
                address2: configuration.address,
                address3: membership.clusterID,
                sequenceControl: counter.nextSequenceControl()
            ),
            body: .nanBeacon(
                NANBeacon(
                    timestamp: tsf,
                    beaconInterval: kind.beaconInterval,
                    elements: [.nan(NANElement(attributes: attributes))]
                )
            )
        )
        var request = TxRequest(
            frame: frame.wireBytes,
            channel: channel,
            powerDBm: configuration.transmitPowerDBm,
            cookie: counter.nextCookie()
        )
        // The Timestamp follows the 24-octet header; the air sets it when the beacon goes out.
        request.timestampAtTransmission = TSFStamp(
            fieldOffset: 24,
            tsfOffsetMicroseconds: membership.tsfOffsetMicroseconds
        )
        return request
    }

    /// A NAN beacon from another device: join its cluster when scanning or when it ranks higher
    /// than ours; inside our cluster, note the peer for the election and run the anchor master
    /// selection.
    mutating func receive(_ received: ReceivedFrame, now: Instant, actions: inout [SynchronizationAction]) {
        guard case .nanBeacon(let beacon) = received.frame.body,
            received.transmitter != configuration.address,
            received.frame.header.address3.isClusterID,
            let heard = HeardBeacon(beacon, received: received)
        else { return }
        switch state {
        case .idle:
            return
        case .scanning:
            actions.append(.cancel(.scanEnd))
            join(heard, now: now, actions: &actions)
        case .inCluster(var membership):
            if heard.clusterID != membership.clusterID {
                guard heard.cluster.anchorMasterRank > membership.anchorMasterRank else { return }
                cancelClusterTimers(membership, actions: &actions)
                for channel in membership.openWindows.keys.sorted() {
                    if let window = membership.openWindows[channel] {
                        actions.append(.notify(.discoveryWindowEnded(window)))
                    }
                }
                join(heard, now: now, actions: &actions)
                return
            }
            if beacon.beaconInterval == NANBeacon.syncBeaconInterval {
                membership.peers[received.transmitter] = PeerObservation(
                    masterRank: heard.masterRank,
                    rssiDBm: received.info.rssiDBm
                )
            }
            selectAnchorMaster(heard, membership: &membership, actions: &actions)
            if beacon.beaconInterval == NANBeacon.syncBeaconInterval {
                followTSF(heard, membership: &membership, actions: &actions)
            }
            state = .inCluster(membership)
        }
    }

    /// Keeps the TSF of a device that is not the anchor master on the anchor master's: a sync
    /// beacon from a higher-ranked device that follows the same anchor master carries the
    /// cluster's TSF (1.4), and a TSF that has moved from it by more than
    /// ``tsfTolerance`` is taken again. Taking the TSF only when joining left a device for good
    /// with whatever error its first beacon carried: a phone whose first beacon from the
    /// accessory waited 2.3 ms in a loaded process counted every data slot 2.3 ms behind the
    /// accessory's, and heard half of the frames the accessory sent at the slots' start (the
    /// README's socket run, WA/NDP/BV-01, November 2026). A device that becomes anchor master
    /// keeps its own TSF; the others move to it.
    private func followTSF(
        _ heard: HeardBeacon,
        membership: inout ClusterMembership,
        actions: inout [SynchronizationAction]
    ) {
        guard membership.anchorMasterRank != masterRank,
            heard.cluster.anchorMasterRank == membership.anchorMasterRank,
            heard.masterRank > masterRank
        else { return }
        let arrival = Int64(truncatingIfNeeded: heard.arrival.nanoseconds / 1_000)
        let offset = Int64(clamping: heard.timestamp) &- arrival
        let moved = offset &- membership.tsfOffsetMicroseconds
        guard moved.magnitude > Self.tsfTolerance else { return }
        membership.tsfOffsetMicroseconds = offset
        actions.append(.notify(.clusterTimeAdjusted(status(of: membership), byMicroseconds: moved)))
    }

    /// How far a device's TSF may stand from the cluster's before it takes the cluster's again
    /// (µs): a quarter of a TU, well inside the data plane's 1 ms guard, and above what a
    /// beacon's delivery adds on each hop (the jitter of a datagram's age on the socket air; two
    /// hops of an air that stamps arrival 100 µs late), so a cluster whose TSFs agree that well
    /// is left alone.
    static let tsfTolerance: UInt64 = 256

    /// Adopt the cluster ID (A3), the TSF (Timestamp = cluster TSF when the frame arrived), the
    /// anchor master and one more hop; start as non-master sync (1.4, "practical note").
    private mutating func join(_ heard: HeardBeacon, now: Instant, actions: inout [SynchronizationAction]) {
        let arrival = Int64(truncatingIfNeeded: heard.arrival.nanoseconds / 1_000)
        var membership = ClusterMembership(
            clusterID: heard.clusterID,
            tsfOffsetMicroseconds: Int64(clamping: heard.timestamp) &- arrival,
            role: .nonMasterSync,
            anchorMasterRank: heard.cluster.anchorMasterRank,
            hopCount: heard.cluster.hopCountToAnchorMaster &+ 1,
            anchorMasterBeaconTransmissionTime: heard.cluster.anchorMasterBeaconTransmissionTime
        )
        enter(&membership, now: now, actions: &actions)
        state = .inCluster(membership)
        actions.append(.notify(.clusterJoined(status(of: membership))))
    }
}

/// The parts of a NAN beacon synchronization reads; nil without both attributes (2.3).
struct HeardBeacon {
    let clusterID: MACAddress
    let timestamp: UInt64
    let arrival: Instant
    let masterRank: UInt64
    let cluster: ClusterAttribute

    init?(_ beacon: NANBeacon, received: ReceivedFrame) {
        var indication: MasterIndicationAttribute?
        var cluster: ClusterAttribute?
        for attribute in beacon.attributes {
            switch attribute {
            case .masterIndication(let value): indication = indication ?? value
            case .cluster(let value): cluster = cluster ?? value
            default: break
            }
        }
        guard let indication, let cluster else { return nil }
        self.clusterID = received.frame.header.address3
        self.timestamp = beacon.timestamp
        self.arrival = received.info.timestamp
        self.masterRank = ClusterAttribute.masterRank(
            masterPreference: indication.masterPreference,
            randomFactor: indication.randomFactor,
            address: received.transmitter
        )
        self.cluster = cluster
    }
}

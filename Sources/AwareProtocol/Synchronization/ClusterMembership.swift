import AwareCore
import AwareWire

/// The state of a device in a cluster.
struct ClusterMembership: Hashable, Sendable {
    var clusterID: MACAddress
    var tsfOffsetMicroseconds: Int64
    var role: SynchronizationRole
    var anchorMasterRank: UInt64
    var hopCount: UInt8
    var anchorMasterBeaconTransmissionTime: UInt32
    /// Channel 6 windows ended since the device entered the cluster.
    var windowCount: UInt64 = 0
    var lastAnchorMasterUpdate: UInt64 = 0
    /// Sync beacons of the cluster heard since the last election (the end of the previous channel 6
    /// window), by transmitter.
    var peers: [MACAddress: PeerObservation] = [:]
    /// The window open now on each channel.
    var openWindows: [NANChannel: DiscoveryWindow] = [:]

    func tsf(at instant: Instant) -> UInt64 {
        let local = Int64(truncatingIfNeeded: instant.nanoseconds / 1_000)
        let (sum, overflow) = local.addingReportingOverflow(tsfOffsetMicroseconds)
        if overflow { return tsfOffsetMicroseconds > 0 ? UInt64(Int64.max) : 0 }
        return UInt64(clamping: sum)
    }

    func instant(atTSF tsf: UInt64) -> Instant {
        let (local, overflow) = Int64(clamping: tsf).subtractingReportingOverflow(tsfOffsetMicroseconds)
        guard !overflow, local > 0 else {
            return overflow && tsfOffsetMicroseconds < 0 ? Instant(nanoseconds: .max) : .zero
        }
        return Instant(nanoseconds: UInt64(local).multipliedReportingOverflow(by: 1_000).partialValue)
    }
}

/// One peer's sync beacon, as the master election needs it (1.4).
struct PeerObservation: Hashable, Sendable {
    var masterRank: UInt64
    var rssiDBm: Int
}

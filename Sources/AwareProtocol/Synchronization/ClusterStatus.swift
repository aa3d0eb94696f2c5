import AwareCore
import AwareWire

/// Where a ``SynchronizationEngine`` stands in its cluster.
public struct ClusterStatus: Hashable, Sendable {
    public var clusterID: MACAddress
    public var role: SynchronizationRole
    public var masterRank: UInt64
    public var anchorMasterRank: UInt64
    public var hopCount: UInt8
    /// TSF (µs) = local time (µs) + this offset.
    public var tsfOffsetMicroseconds: Int64

    /// This device is the anchor master: the cluster's AMR is its own Master Rank.
    public var isAnchorMaster: Bool { anchorMasterRank == masterRank }
}

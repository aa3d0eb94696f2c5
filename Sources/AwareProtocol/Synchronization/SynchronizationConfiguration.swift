import AwareCore
import AwareWire

/// What a ``SynchronizationEngine`` needs to know. Defaults and their sources are in
/// nan-wire-reference.md 1.4.
public struct SynchronizationConfiguration: Hashable, Sendable {
    /// Own NMI: A2 of beacons and the low 48 bits of the Master Rank.
    public var address: MACAddress
    /// The high octet of the Master Rank. 2 is a choice: low, as befits a battery accessory,
    /// but non-zero so that the device can still win an election among zero-preference peers.
    public var masterPreference: UInt8
    /// The channels with discovery windows: channel 6 always, 149 for the 5 GHz window
    /// (128 TU later, `DiscoveryWindowTiming.offset5GHz`).
    public var channels: [NANChannel]
    /// How long to listen for a cluster before forming one. Four DW periods (about 2.1 s) is a
    /// choice: long enough to hear at least one sync beacon of a cluster and many of its
    /// discovery beacons (every 100 TU).
    public var scanPeriod: Interval
    /// OpenNAN `NAN_DISCOVERY_BEACON_INTERVAL_TU` (1.4).
    public var discoveryBeaconInterval: Interval
    /// RSSI_close and RSSI_middle, OpenNAN peer.h defaults (1.4).
    public var closeRSSIDBm: Int
    public var middleRSSIDBm: Int
    /// A non-anchor master that hears no fresher AMBTT for this many DWs takes over as anchor
    /// master (OpenNAN `nan_check_anchor_master_expiration`, 1.4).
    public var anchorMasterExpiryWindows: UInt64
    public var transmitPowerDBm: Int
    /// The TSF of a cluster this device forms, less its local time (µs): where its own TSF
    /// timer stands. A radio's TSF timer runs from its own power-on, so two devices' timers
    /// agree only by chance, and every slot of a schedule counts from the TSF of the cluster,
    /// not from either device's clock (2.7). 0 keeps the TSF on the scheduler's clock; on the
    /// simulated air every device shares that clock, so tests set another value to tell a
    /// device that follows the cluster's TSF from one that takes its own time for it.
    public var ownTSFOffsetMicroseconds: Int64

    public init(
        address: MACAddress,
        masterPreference: UInt8 = 2,
        channels: [NANChannel] = [.channel6, .channel149],
        scanPeriod: Interval = DiscoveryWindowTiming.period * 4,
        discoveryBeaconInterval: Interval = .timeUnits(100),
        closeRSSIDBm: Int = -60,
        middleRSSIDBm: Int = -75,
        anchorMasterExpiryWindows: UInt64 = 3,
        transmitPowerDBm: Int = 20,
        ownTSFOffsetMicroseconds: Int64 = 0
    ) {
        self.address = address
        self.masterPreference = masterPreference
        self.channels = channels
        self.scanPeriod = scanPeriod
        self.discoveryBeaconInterval = discoveryBeaconInterval
        self.closeRSSIDBm = closeRSSIDBm
        self.middleRSSIDBm = middleRSSIDBm
        self.anchorMasterExpiryWindows = anchorMasterExpiryWindows
        self.transmitPowerDBm = transmitPowerDBm
        self.ownTSFOffsetMicroseconds = ownTSFOffsetMicroseconds
    }
}

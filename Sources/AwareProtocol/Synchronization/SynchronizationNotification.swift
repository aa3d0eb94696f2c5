/// What a ``SynchronizationEngine`` tells its owner. The window notifications are meant to be
/// handed on to a synchronized ``DiscoveryEngine`` as ``DiscoveryEvent/discoveryWindowStarted(_:)``
/// and ``DiscoveryEvent/discoveryWindowEnded(_:)``.
public enum SynchronizationNotification: Hashable, Sendable {
    case scanning
    /// No cluster was heard: this device formed one and is its anchor master.
    case clusterStarted(ClusterStatus)
    /// This device adopted a cluster it heard (when scanning, or merging into a higher-ranked one).
    case clusterJoined(ClusterStatus)
    case roleChanged(ClusterStatus)
    case anchorMasterChanged(ClusterStatus)
    case discoveryWindowStarted(DiscoveryWindow)
    case discoveryWindowEnded(DiscoveryWindow)
    case stopped
}

import AwareCore
import AwareWire

/// A running publish: its configuration and what changes while it runs.
struct PublishInstance: Hashable, Sendable {
    let instanceID: UInt8
    var configuration: PublishConfiguration
    let serviceID: ServiceID
    var serviceUpdateIndicator: UInt8
    /// USD: when the next unsolicited Publish is due.
    var nextAnnouncement: Instant?
    var expiry: Instant?
    /// Subscribers already reported as answered, so `replied` is told once per subscriber instance.
    var answered: Set<PeerInstance> = []

    init(instanceID: UInt8, configuration: PublishConfiguration) {
        self.instanceID = instanceID
        self.configuration = configuration
        self.serviceID = configuration.serviceID
        self.serviceUpdateIndicator = configuration.serviceUpdateIndicator
    }
}

/// One instance on one peer.
struct PeerInstance: Hashable, Sendable {
    var address: MACAddress
    var instanceID: UInt8
}

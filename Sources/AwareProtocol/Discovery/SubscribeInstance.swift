import AwareCore
import AwareWire

/// A running subscribe: its configuration and the publishers it has reported.
struct SubscribeInstance: Hashable, Sendable {
    let instanceID: UInt8
    let configuration: SubscribeConfiguration
    let serviceID: ServiceID
    /// USD: when the next active Subscribe is due.
    var nextAnnouncement: Instant?
    var expiry: Instant?
    /// The Service Update Indicator last reported per publisher instance: a publisher is reported
    /// again only when it changes (a publish update, 2.5).
    var reported: [PeerInstance: UInt8?] = [:]
    /// Rejections already reported, when the configuration asks for them.
    var rejected: Set<RejectedPublish> = []

    init(instanceID: UInt8, configuration: SubscribeConfiguration) {
        self.instanceID = instanceID
        self.configuration = configuration
        self.serviceID = configuration.serviceID
    }

    var isActive: Bool { configuration.mode == .active }
}

struct RejectedPublish: Hashable, Sendable {
    var peer: PeerInstance
    var outcome: DiscoveryMatchOutcome
}

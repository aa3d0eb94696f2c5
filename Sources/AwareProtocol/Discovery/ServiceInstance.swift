import AwareCore
import AwareWire

/// A running publish or subscribe, as the engine starts and ends both: a validated
/// configuration, an instance ID, an optional time to live (nan-wire-reference.md 2.4), and
/// the timers to cancel when it ends.
protocol ServiceInstance: Sendable {
    associatedtype Configuration: ServiceConfiguration
    static var role: ServiceRole { get }
    var instanceID: UInt8 { get }
    var nextAnnouncement: Instant? { get }
    var expiry: Instant? { get set }
    init(instanceID: UInt8, configuration: Configuration)
}

extension PublishInstance: ServiceInstance {
    static var role: ServiceRole { .publish }
}

extension SubscribeInstance: ServiceInstance {
    static var role: ServiceRole { .subscribe }
}

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

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

import AwareCore
import AwareWire

/// What the engine checks and uses alike when it starts a publish or a subscribe.
protocol ServiceConfiguration: Sendable {
    var serviceName: String { get }
    var transmitMatchingFilter: MatchingFilter? { get }
    var receiveMatchingFilter: MatchingFilter? { get }
    var serviceInfo: ServiceSpecificInfo? { get }
    var timeToLive: Interval? { get }
    var instanceID: UInt8? { get }
}

extension PublishConfiguration: ServiceConfiguration {}

extension SubscribeConfiguration: ServiceConfiguration {}

/// What the owner asks a ``DiscoveryEngine`` to do.
public enum DiscoveryCommand: Hashable, Sendable {
    case publish(PublishConfiguration)
    case subscribe(SubscribeConfiguration)
    case updatePublish(instanceID: UInt8, PublishUpdate)
    case cancelPublish(instanceID: UInt8)
    case cancelSubscribe(instanceID: UInt8)
    case transmitFollowUp(FollowUpRequest)
}

/// What a ``DiscoveryEngine`` tells its owner.
public enum DiscoveryNotification: Hashable, Sendable {
    case publishStarted(instanceID: UInt8, serviceName: String)
    case subscribeStarted(instanceID: UInt8, serviceName: String)
    case commandRejected(DiscoveryCommandError)
    case discoveryResult(DiscoveryResult)
    case replied(SubscriberReply)
    case followUpReceived(FollowUpMessage)
    case followUpTransmitted(token: UInt32, acknowledged: Bool)
    case publishUpdated(instanceID: UInt8, serviceUpdateIndicator: UInt8)
    case terminated(instanceID: UInt8, role: ServiceRole, reason: TerminationReason)
}

import AwareCore
import AwareWire

/// A publish answered a matching active Subscribe with a solicited Publish (hostap `NAN-REPLIED`).
public struct SubscriberReply: Hashable, Sendable {
    public var publishInstanceID: UInt8
    public var subscriberAddress: MACAddress
    public var subscribeInstanceID: UInt8
    public var rssiDBm: Int
    /// The subscriber's SDEA Service Info, if any.
    public var serviceSpecificInfo: ServiceSpecificInfo?

    public init(
        publishInstanceID: UInt8,
        subscriberAddress: MACAddress,
        subscribeInstanceID: UInt8,
        rssiDBm: Int,
        serviceSpecificInfo: ServiceSpecificInfo?
    ) {
        self.publishInstanceID = publishInstanceID
        self.subscriberAddress = subscriberAddress
        self.subscribeInstanceID = subscribeInstanceID
        self.rssiDBm = rssiDBm
        self.serviceSpecificInfo = serviceSpecificInfo
    }
}

import AwareCore
import AwareWire

/// One service to look for.
public struct SubscribeConfiguration: Hashable, Sendable {
    /// Hashed case-insensitively into the Service ID (nan-wire-reference.md 2.4).
    public var serviceName: String
    public var mode: SubscribeMode
    /// Sent in the SDA of an active Subscribe; the publisher matches it against its receive filter.
    public var transmitMatchingFilter: MatchingFilter?
    /// Matched against the transmit filter of an unsolicited Publish.
    public var receiveMatchingFilter: MatchingFilter?
    /// Sent in an active Subscribe: which publishers may answer (nan-wire-reference.md 2.4).
    public var serviceResponseFilter: ServiceResponseFilter?
    public var serviceInfo: ServiceSpecificInfo?
    /// The subscriber means to open data paths with what it finds, so its SDFs carry the
    /// device's Device Capability and NAN Availability (nan-wire-reference.md 4.1).
    public var seeksDataPaths: Bool
    public var additionalAttributes: [NANAttribute]
    /// How long the subscribe lasts; nil until cancelled.
    public var timeToLive: Interval?
    /// Sets SDA Discovery Range Limited and reports only publishers at or above the range threshold.
    public var discoveryRangeLimited: Bool
    /// 1...255; nil takes the lowest instance ID no other service holds.
    public var instanceID: UInt8?

    /// `matchingFilter` is both the transmit and the receive filter, as the phone's single
    /// `--match-filter` is; pass `receiveMatchingFilter` to tell them apart.
    public init(
        serviceName: String,
        mode: SubscribeMode = .passive,
        matchingFilter: MatchingFilter? = nil,
        receiveMatchingFilter: MatchingFilter?? = nil,
        serviceResponseFilter: ServiceResponseFilter? = nil,
        serviceInfo: ServiceSpecificInfo? = nil,
        seeksDataPaths: Bool = true,
        additionalAttributes: [NANAttribute] = [],
        timeToLive: Interval? = nil,
        discoveryRangeLimited: Bool = false,
        instanceID: UInt8? = nil
    ) {
        self.serviceName = serviceName
        self.mode = mode
        self.transmitMatchingFilter = matchingFilter
        self.receiveMatchingFilter = receiveMatchingFilter ?? matchingFilter
        self.serviceResponseFilter = serviceResponseFilter
        self.serviceInfo = serviceInfo
        self.seeksDataPaths = seeksDataPaths
        self.additionalAttributes = additionalAttributes
        self.timeToLive = timeToLive
        self.discoveryRangeLimited = discoveryRangeLimited
        self.instanceID = instanceID
    }

    public var serviceID: ServiceID { ServiceID(serviceName: serviceName) }
}

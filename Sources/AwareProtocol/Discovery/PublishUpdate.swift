import AwareWire

/// New content for a running publish. Fields left nil keep their value. Applying an update adds
/// one to the Service Update Indicator and announces at once, so subscribers that already
/// discovered the service report it again (nan-wire-reference.md 2.5).
public struct PublishUpdate: Hashable, Sendable {
    public var serviceInfo: ServiceSpecificInfo?
    public var pairing: PairingAdvertisement?
    public var additionalAttributes: [NANAttribute]?
    public var transmitMatchingFilter: MatchingFilter?

    public init(
        serviceInfo: ServiceSpecificInfo? = nil,
        pairing: PairingAdvertisement? = nil,
        additionalAttributes: [NANAttribute]? = nil,
        transmitMatchingFilter: MatchingFilter? = nil
    ) {
        self.serviceInfo = serviceInfo
        self.pairing = pairing
        self.additionalAttributes = additionalAttributes
        self.transmitMatchingFilter = transmitMatchingFilter
    }
}

/// A deliberate misbehaviour of the emulated accessory, switched on with `--fault NAME`.
///
/// Every conformance test must be able to fail. Each fault breaks one behaviour the
/// catalogue checks, so `aware-conform selftest` can run the suite against the broken
/// accessory and confirm that the right tests fail and the others still pass.
public enum AccessoryFault: String, CaseIterable, Hashable, Sendable, Codable {
    case ignoreMatchFilter = "ignore-match-filter"
    case ignoreServiceResponseFilter = "ignore-srf"
    case noSolicitedReply = "no-solicited-reply"
    case noUnsolicitedPublish = "no-unsolicited-publish"
    case wrongServiceID = "wrong-service-id"
    case missingPairingName = "missing-pairing-name"
    case vendorNameUppercased = "vendor-name-uppercased"
    case wrongModelName = "wrong-model-name"
    case ignoreTTL = "ignore-ttl"
    case noServiceUpdateIndicator = "no-service-update-indicator"
    case firstServiceOnly = "first-service-only"
    case noPairingAdvertisement = "no-pairing-advertisement"
    case answerPassiveWithUnicast = "unicast-to-passive"
    case unsolicitedWhenSolicitedOnly = "unsolicited-when-solicited-only"
    case answerAnyService = "answer-any-service"
    case omitMatchFilter = "omit-match-filter"
    case missingModelName = "missing-model-name"
    case longTXTValue = "long-txt-value"
    case ignoreBeacons = "ignore-beacons"
    case ignoreRangeLimit = "ignore-range-limit"

    /// What the fault does, for `--help` and the self-test report.
    public var summary: String {
        switch self {
        case .ignoreMatchFilter: "answer active subscribes whatever their matching filter says"
        case .ignoreServiceResponseFilter: "answer active subscribes whose service response filter excludes us"
        case .noSolicitedReply: "never answer an active subscribe (drop solicited publishes)"
        case .noUnsolicitedPublish: "never send unsolicited (multicast) publishes"
        case .wrongServiceID: "publish a service ID that is not SHA-256 of the service name"
        case .missingPairingName: "leave pairingName out of the TXT record"
        case .vendorNameUppercased: "send vendorName in upper case"
        case .wrongModelName: "send a modelName different from the profile's"
        case .ignoreTTL: "keep publishing after the service's TTL"
        case .noServiceUpdateIndicator: "change service info without bumping the service update indicator"
        case .firstServiceOnly: "publish only the first service of the profile"
        case .noPairingAdvertisement: "leave the DCEA and NPBA (pairing capability) out of publishes"
        case .answerPassiveWithUnicast:
            "send unsolicited publishes to the last subscriber's address instead of multicast"
        case .unsolicitedWhenSolicitedOnly: "send unsolicited publishes for a service published solicited only"
        case .answerAnyService: "answer active subscribes for any service ID, not just our own"
        case .omitMatchFilter: "leave the matching filter out of publishes"
        case .missingModelName: "leave modelName out of the TXT record"
        case .longTXTValue: "send a TXT value longer than the 63 octets the phone reads"
        case .ignoreBeacons: "ignore NAN beacons: never join another device's cluster"
        case .ignoreRangeLimit: "publish a range-limited service without the range limit, answering phones far away"
        }
    }
}

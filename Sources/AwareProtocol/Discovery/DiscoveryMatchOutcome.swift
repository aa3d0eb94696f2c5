/// Whether a received Publish matched a subscribe, and if not, the first rule that rejected it.
public enum DiscoveryMatchOutcome: String, Hashable, Sendable {
    case matched
    /// The subscriber's receive filter does not match the publisher's transmit filter (2.4).
    case matchingFilterMismatch
    /// The publish's SRF leaves this station out (2.4).
    case excludedByServiceResponseFilter
    /// Discovery Range Limited and the RSSI is below the threshold (1.5).
    case outOfRange
}

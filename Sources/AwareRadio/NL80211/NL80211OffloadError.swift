import AwareWire

/// Why a frame a role sent, or an event the kernel sent, could not be translated on the NAN
/// function offload path (``NL80211DiscoveryPath/functionOffload``). Each case says what was
/// met and where; none is fatal to the radio.
public enum NL80211OffloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The outgoing octets are not an 802.11 frame AwareWire can read.
    case unreadableFrame(WireError)
    /// A frame a driver's discovery engine has no function for: NAN beacons (the driver
    /// synchronises itself), NAFs, protected frames, data frames. `kind` is the frame's name.
    case notCarried(kind: String)
    /// An SDF without a Service Descriptor attribute, or with several (a function is one
    /// service instance; the roles never send more than one).
    case serviceDescriptorCount(Int)
    /// A Service Descriptor whose Service Control type is reserved (3).
    case reservedServiceControlType(instanceID: UInt8)
    /// The service-specific info would exceed `NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN`.
    case serviceInfoTooLong(instanceID: UInt8, octets: Int)
    /// A PASN Authentication frame on a wiphy that cannot send or receive Authentication
    /// frames on the NAN interface type; `missing` names what, in nl80211's words.
    case pairingUnavailable(missing: [String])
    /// A `NL80211_CMD_NAN_MATCH` for a cookie of no function this radio added.
    case matchForUnknownFunction(cookie: UInt64)

    public var description: String {
        switch self {
        case .unreadableFrame(let error):
            return "NAN function offload: the outgoing frame is not readable: \(error)"
        case .notCarried(let kind):
            return "NAN function offload cannot carry a \(kind): the driver's discovery engine sends only "
                + "publish, subscribe and follow-up functions (NL80211_CMD_ADD_NAN_FUNCTION)"
        case .serviceDescriptorCount(let count):
            return "NAN function offload: an SDF with \(count) Service Descriptor attributes; a function is exactly one"
        case .reservedServiceControlType(let instanceID):
            return "NAN function offload: instance \(instanceID)'s Service Descriptor has the reserved "
                + "Service Control type 3"
        case .serviceInfoTooLong(let instanceID, let octets):
            return "NAN function offload: instance \(instanceID)'s service info is \(octets) octets; "
                + "NL80211_NAN_FUNC_SERVICE_INFO holds at most 255"
        case .pairingUnavailable(let missing):
            return "NAN function offload: pairing (PASN Authentication frames) is refused on this wiphy: it lacks "
                + missing.joined(separator: "; ")
        case .matchForUnknownFunction(let cookie):
            return "NL80211_CMD_NAN_MATCH for cookie \(cookie), which is no function this radio added"
        }
    }
}

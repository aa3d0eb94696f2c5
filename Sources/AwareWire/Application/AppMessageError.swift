/// Why an application message cannot be sent the way it was asked for.
public enum AppMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload is longer than a follow-up can carry (``AppMessage/maximumFollowUpPayload``).
    case tooLargeForFollowUp(size: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooLargeForFollowUp(let size, let limit):
            "an application payload of \(size) octets is too large for a NAN follow-up: at most \(limit) "
                + "octets fit (255 octets of Service Info, less the 4-octet OUI and protocol type and the "
                + "\(AppMessage.headerLength)-octet message header); send it over the data path instead"
        }
    }
}

/// A small application message carried in a NAN follow-up instead of over a data path (a
/// token exchange before or without an NDP).
///
/// The follow-up path (`FollowUpRequest.serviceInfo`) sends the message as the Service Specific
/// Info of the SDEA: `OUI (3) | Service Protocol Type (1) | info` (nan-wire-reference.md 2.5).
/// The SDEA's own length field is two octets, but Service Info in the SDA has a one-octet length
/// (2.4, and the cheat sheet in 5), and stacks that copy Service Info between the two, or cap it
/// at the SDA's size, hold at most 255 octets. This bench keeps every follow-up within that:
/// 255 octets of Service Info including the OUI and protocol type, so the message (header and
/// payload) is at most 251 octets and its payload at most 231.
///
/// The OUI is the Wi-Fi Alliance's and the protocol type is 0: type 0 is reserved in the SDEA
/// (2.5) and is what hostap reports for raw SDA Service Info, i.e. "no protocol, opaque octets";
/// the "AB" magic of the message identifies the content. Bonjour (1) and Generic (2) would make
/// other decoders read the octets as a TXT record or as GSP sub-attributes.
public struct FollowUpAppMessage: Hashable, Sendable {
    /// Service Info in the SDA has a one-octet length (nan-wire-reference.md 2.4).
    public static let serviceInfoLimit = 255
    /// OUI (3) and Service Protocol Type (1) in front of the message (nan-wire-reference.md 2.5).
    public static let serviceInfoOverhead = 4
    public static let maximumMessageLength = serviceInfoLimit - serviceInfoOverhead
    public static let protocolType = ServiceProtocolType(rawValue: 0)

    public let message: AppMessage

    /// Fails when the payload is longer than ``AppMessage/maximumFollowUpPayload``.
    public init(_ message: AppMessage) throws(AppMessageError) {
        let size = message.body.payloadBytes.count
        guard size <= AppMessage.maximumFollowUpPayload else {
            throw .tooLargeForFollowUp(size: size, limit: AppMessage.maximumFollowUpPayload)
        }
        self.message = message
    }

    /// Reads the message from a received follow-up's Service Specific Info.
    public init(serviceInfo: ServiceSpecificInfo) throws(WireError) {
        guard serviceInfo.oui == ServiceSpecificInfo.wfaOUI, serviceInfo.protocolType == Self.protocolType else {
            throw WireError(
                .invalidValue("Service Info is not an application message (OUI 50-6F-9A, protocol type 0)"),
                structure: "Follow-up application message",
                field: "Service Protocol Type",
                offset: 0
            )
        }
        message = try AppMessage(datagram: serviceInfo.info)
    }

    /// The Service Specific Info to put in a follow-up's SDEA.
    public var serviceInfo: ServiceSpecificInfo {
        ServiceSpecificInfo(protocolType: Self.protocolType, info: message.wireBytes)
    }
}

extension AppMessage {
    /// The longest payload a follow-up carries: 255 - 4 - 20 = 231 octets (``FollowUpAppMessage``).
    public static let maximumFollowUpPayload = FollowUpAppMessage.maximumMessageLength - headerLength
}

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

/// The Subtype of a management frame (IEEE 802.11-2020 Table 9-1). An open set: values
/// without a name are kept.
public struct ManagementSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    public static let associationRequest = Self(rawValue: 0)
    public static let associationResponse = Self(rawValue: 1)
    public static let reassociationRequest = Self(rawValue: 2)
    public static let reassociationResponse = Self(rawValue: 3)
    public static let probeRequest = Self(rawValue: 4)
    public static let probeResponse = Self(rawValue: 5)
    public static let timingAdvertisement = Self(rawValue: 6)
    public static let beacon = Self(rawValue: 8)
    public static let atim = Self(rawValue: 9)
    public static let disassociation = Self(rawValue: 10)
    public static let authentication = Self(rawValue: 11)
    public static let deauthentication = Self(rawValue: 12)
    public static let action = Self(rawValue: 13)
    public static let actionNoAck = Self(rawValue: 14)

    public var name: String {
        switch rawValue {
        case 0: "Association Request"
        case 1: "Association Response"
        case 2: "Reassociation Request"
        case 3: "Reassociation Response"
        case 4: "Probe Request"
        case 5: "Probe Response"
        case 6: "Timing Advertisement"
        case 8: "Beacon"
        case 9: "ATIM"
        case 10: "Disassociation"
        case 11: "Authentication"
        case 12: "Deauthentication"
        case 13: "Action"
        case 14: "Action No Ack"
        default: "Reserved"
        }
    }
}

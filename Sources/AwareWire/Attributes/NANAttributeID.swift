import AwareCore

/// A NAN attribute ID (nan-wire-reference.md 2.2, from hostap `enum nan_attr_id` and
/// Wireshark's `attribute_types`). An open set: IDs we do not know are kept, not rejected.
public struct NANAttributeID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let masterIndication = Self(0x00)
    public static let cluster = Self(0x01)
    public static let serviceIDList = Self(0x02)
    public static let serviceDescriptor = Self(0x03)
    public static let connectionCapability = Self(0x04)
    public static let countryCode = Self(0x0B)
    public static let clusterDiscovery = Self(0x0D)
    public static let serviceDescriptorExtension = Self(0x0E)
    public static let deviceCapability = Self(0x0F)
    public static let ndp = Self(0x10)
    public static let availability = Self(0x12)
    public static let ndc = Self(0x13)
    public static let ndl = Self(0x14)
    public static let ndlQoS = Self(0x15)
    public static let unalignedSchedule = Self(0x17)
    public static let rangingInformation = Self(0x1A)
    public static let rangingSetup = Self(0x1B)
    public static let ftmRangingReport = Self(0x1C)
    public static let elementContainer = Self(0x1D)
    public static let cipherSuiteInfo = Self(0x22)
    public static let securityContextInfo = Self(0x23)
    public static let sharedKeyDescriptor = Self(0x24)
    public static let publicAvailability = Self(0x27)
    public static let subscribeServiceIDList = Self(0x28)
    public static let ndpExtension = Self(0x29)
    public static let deviceCapabilityExtension = Self(0x2A)
    public static let identityResolution = Self(0x2B)
    public static let pairingBootstrapping = Self(0x2C)
    public static let s3 = Self(0x2D)
    public static let transmitPowerEnvelope = Self(0x2E)
    public static let vendorSpecific = Self(0xDD)

    /// The attribute's name as the reference's table gives it.
    public var name: String {
        switch rawValue {
        case 0x00: "Master Indication"
        case 0x01: "Cluster"
        case 0x02: "Service ID List"
        case 0x03: "Service Descriptor"
        case 0x04: "NAN Connection Capability"
        case 0x05: "WLAN Infrastructure"
        case 0x06: "P2P Operation"
        case 0x07: "IBSS"
        case 0x08: "Mesh"
        case 0x09: "Further NAN Service Discovery"
        case 0x0A: "Further Availability Map"
        case 0x0B: "Country Code"
        case 0x0C: "Ranging"
        case 0x0D: "Cluster Discovery"
        case 0x0E: "Service Descriptor Extension"
        case 0x0F: "Device Capability"
        case 0x10: "NDP"
        case 0x12: "NAN Availability"
        case 0x13: "NDC"
        case 0x14: "NDL"
        case 0x15: "NDL QoS"
        case 0x17: "Unaligned Schedule"
        case 0x1A: "Ranging Information"
        case 0x1B: "Ranging Setup"
        case 0x1C: "FTM Ranging Report"
        case 0x1D: "Element Container"
        case 0x1E: "Extended WLAN Infrastructure"
        case 0x1F: "Extended P2P Operation"
        case 0x20: "Extended IBSS"
        case 0x21: "Extended Mesh"
        case 0x22: "Cipher Suite Info"
        case 0x23: "Security Context Info"
        case 0x24: "Shared-Key Descriptor"
        case 0x27: "Public Availability"
        case 0x28: "Subscribe Service ID List"
        case 0x29: "NDP Extension"
        case 0x2A: "Device Capability Extension"
        case 0x2B: "NAN Identity Resolution"
        case 0x2C: "NAN Pairing Bootstrapping"
        case 0x2D: "S3"
        case 0x2E: "Transmit Power Envelope"
        case 0xDD: "Vendor Specific"
        case 0x11, 0x16, 0x18, 0x19, 0x25, 0x26: "Reserved"
        default: "Unknown"
        }
    }

    /// "Service Descriptor attribute (0x03)"
    public var description: String { "\(name) attribute (0x\(HexString.byte(rawValue)))" }
}

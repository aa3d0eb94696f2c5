import AwareCore

/// One NAN attribute: `Attribute ID (1) | Length (2, LE) | Body` (nan-wire-reference.md 2.1).
///
/// A closed set of the attributes AwareBench understands, and everything else kept
/// byte-exact in ``unknown(id:body:)`` so that a frame re-serializes intact.
public enum NANAttribute: Hashable, Sendable {
    case masterIndication(MasterIndicationAttribute)
    case cluster(ClusterAttribute)
    case serviceIDList(ServiceIDListAttribute)
    case serviceDescriptor(ServiceDescriptorAttribute)
    case serviceDescriptorExtension(ServiceDescriptorExtensionAttribute)
    case deviceCapability(DeviceCapabilityAttribute)
    case ndp(NDPAttribute)
    case availability(AvailabilityAttribute)
    case ndc(NDCAttribute)
    case ndl(NDLAttribute)
    case ndlQoS(NDLQoSAttribute)
    case unalignedSchedule(UnalignedScheduleAttribute)
    case elementContainer(ElementContainerAttribute)
    case cipherSuiteInfo(CipherSuiteInfoAttribute)
    case securityContextInfo(SecurityContextInfoAttribute)
    case sharedKeyDescriptor(SharedKeyDescriptorAttribute)
    case subscribeServiceIDList(SubscribeServiceIDListAttribute)
    case ndpExtension(NDPExtensionAttribute)
    case deviceCapabilityExtension(DeviceCapabilityExtensionAttribute)
    case identityResolution(IdentityResolutionAttribute)
    case pairingBootstrapping(PairingBootstrappingAttribute)
    case vendorSpecific(VendorSpecificAttribute)
    /// An attribute this decoder does not lay out, kept octet for octet.
    case unknown(id: NANAttributeID, body: [UInt8])

    /// The attribute ID this value is written with.
    public var id: NANAttributeID {
        switch self {
        case .masterIndication: MasterIndicationAttribute.attributeID
        case .cluster: ClusterAttribute.attributeID
        case .serviceIDList: ServiceIDListAttribute.attributeID
        case .serviceDescriptor: ServiceDescriptorAttribute.attributeID
        case .serviceDescriptorExtension: ServiceDescriptorExtensionAttribute.attributeID
        case .deviceCapability: DeviceCapabilityAttribute.attributeID
        case .ndp: NDPAttribute.attributeID
        case .availability: AvailabilityAttribute.attributeID
        case .ndc: NDCAttribute.attributeID
        case .ndl: NDLAttribute.attributeID
        case .ndlQoS: NDLQoSAttribute.attributeID
        case .unalignedSchedule: UnalignedScheduleAttribute.attributeID
        case .elementContainer: ElementContainerAttribute.attributeID
        case .cipherSuiteInfo: CipherSuiteInfoAttribute.attributeID
        case .securityContextInfo: SecurityContextInfoAttribute.attributeID
        case .sharedKeyDescriptor: SharedKeyDescriptorAttribute.attributeID
        case .subscribeServiceIDList: SubscribeServiceIDListAttribute.attributeID
        case .ndpExtension: NDPExtensionAttribute.attributeID
        case .deviceCapabilityExtension: DeviceCapabilityExtensionAttribute.attributeID
        case .identityResolution: IdentityResolutionAttribute.attributeID
        case .pairingBootstrapping: PairingBootstrappingAttribute.attributeID
        case .vendorSpecific: VendorSpecificAttribute.attributeID
        case .unknown(let id, _): id
        }
    }

    /// The typed body, or nil for an unknown attribute.
    public var body: (any NANAttributeBody)? {
        switch self {
        case .masterIndication(let value): value
        case .cluster(let value): value
        case .serviceIDList(let value): value
        case .serviceDescriptor(let value): value
        case .serviceDescriptorExtension(let value): value
        case .deviceCapability(let value): value
        case .ndp(let value): value
        case .availability(let value): value
        case .ndc(let value): value
        case .ndl(let value): value
        case .ndlQoS(let value): value
        case .unalignedSchedule(let value): value
        case .elementContainer(let value): value
        case .cipherSuiteInfo(let value): value
        case .securityContextInfo(let value): value
        case .sharedKeyDescriptor(let value): value
        case .subscribeServiceIDList(let value): value
        case .ndpExtension(let value): value
        case .deviceCapabilityExtension(let value): value
        case .identityResolution(let value): value
        case .pairingBootstrapping(let value): value
        case .vendorSpecific(let value): value
        case .unknown: nil
        }
    }
}

extension NANAttribute: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        let id = NANAttributeID(try reader.readUInt8("Attribute ID"))
        let length = Int(try reader.readUInt16LE("Length"))
        var body = try reader.subReader(length: length, structure: id.description, field: "Length")
        self = try Self.decodeBody(id: id, reader: &body)
        try body.expectEnd()
    }

    /// Picks the body parser for `id`; unknown IDs keep their octets.
    static func decodeBody(id: NANAttributeID, reader: inout WireReader) throws(WireError) -> NANAttribute {
        switch id {
        case MasterIndicationAttribute.attributeID: .masterIndication(try MasterIndicationAttribute(from: &reader))
        case ClusterAttribute.attributeID: .cluster(try ClusterAttribute(from: &reader))
        case ServiceIDListAttribute.attributeID: .serviceIDList(try ServiceIDListAttribute(from: &reader))
        case ServiceDescriptorAttribute.attributeID: .serviceDescriptor(try ServiceDescriptorAttribute(from: &reader))
        case ServiceDescriptorExtensionAttribute.attributeID:
            .serviceDescriptorExtension(try ServiceDescriptorExtensionAttribute(from: &reader))
        case DeviceCapabilityAttribute.attributeID: .deviceCapability(try DeviceCapabilityAttribute(from: &reader))
        case NDPAttribute.attributeID: .ndp(try NDPAttribute(from: &reader))
        case AvailabilityAttribute.attributeID: .availability(try AvailabilityAttribute(from: &reader))
        case NDCAttribute.attributeID: .ndc(try NDCAttribute(from: &reader))
        case NDLAttribute.attributeID: .ndl(try NDLAttribute(from: &reader))
        case NDLQoSAttribute.attributeID: .ndlQoS(try NDLQoSAttribute(from: &reader))
        case UnalignedScheduleAttribute.attributeID: .unalignedSchedule(try UnalignedScheduleAttribute(from: &reader))
        case ElementContainerAttribute.attributeID: .elementContainer(try ElementContainerAttribute(from: &reader))
        case CipherSuiteInfoAttribute.attributeID: .cipherSuiteInfo(try CipherSuiteInfoAttribute(from: &reader))
        case SecurityContextInfoAttribute.attributeID:
            .securityContextInfo(try SecurityContextInfoAttribute(from: &reader))
        case SharedKeyDescriptorAttribute.attributeID:
            .sharedKeyDescriptor(try SharedKeyDescriptorAttribute(from: &reader))
        case SubscribeServiceIDListAttribute.attributeID:
            .subscribeServiceIDList(try SubscribeServiceIDListAttribute(from: &reader))
        case NDPExtensionAttribute.attributeID: .ndpExtension(try NDPExtensionAttribute(from: &reader))
        case DeviceCapabilityExtensionAttribute.attributeID:
            .deviceCapabilityExtension(try DeviceCapabilityExtensionAttribute(from: &reader))
        case IdentityResolutionAttribute.attributeID:
            .identityResolution(try IdentityResolutionAttribute(from: &reader))
        case PairingBootstrappingAttribute.attributeID:
            .pairingBootstrapping(try PairingBootstrappingAttribute(from: &reader))
        case VendorSpecificAttribute.attributeID: .vendorSpecific(try VendorSpecificAttribute(from: &reader))
        default: .unknown(id: id, body: reader.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(id.rawValue)
        writer.withLength16LE { out in
            switch self {
            case .masterIndication(let value): value.write(to: &out)
            case .cluster(let value): value.write(to: &out)
            case .serviceIDList(let value): value.write(to: &out)
            case .serviceDescriptor(let value): value.write(to: &out)
            case .serviceDescriptorExtension(let value): value.write(to: &out)
            case .deviceCapability(let value): value.write(to: &out)
            case .ndp(let value): value.write(to: &out)
            case .availability(let value): value.write(to: &out)
            case .ndc(let value): value.write(to: &out)
            case .ndl(let value): value.write(to: &out)
            case .ndlQoS(let value): value.write(to: &out)
            case .unalignedSchedule(let value): value.write(to: &out)
            case .elementContainer(let value): value.write(to: &out)
            case .cipherSuiteInfo(let value): value.write(to: &out)
            case .securityContextInfo(let value): value.write(to: &out)
            case .sharedKeyDescriptor(let value): value.write(to: &out)
            case .subscribeServiceIDList(let value): value.write(to: &out)
            case .ndpExtension(let value): value.write(to: &out)
            case .deviceCapabilityExtension(let value): value.write(to: &out)
            case .identityResolution(let value): value.write(to: &out)
            case .pairingBootstrapping(let value): value.write(to: &out)
            case .vendorSpecific(let value): value.write(to: &out)
            case .unknown(_, let octets): out.write(octets)
            }
        }
    }
}

extension NANAttribute: WireDescribable {
    /// The body's fields; an unknown attribute shows its octets under `raw`.
    public var decodedFields: [DecodedField] {
        if let body { return body.decodedFields }
        guard case .unknown(_, let octets) = self else { return [] }
        return [DecodedField("raw", "Undecoded", .bytes(octets))]
    }
}

extension NANAttribute {
    /// Parses a run of attributes that must exactly fill `reader` (hostap `nan_parse_attrs`
    /// fails the whole frame otherwise).
    public static func readList(from reader: inout WireReader) throws(WireError) -> [NANAttribute] {
        var attributes: [NANAttribute] = []
        while !reader.isAtEnd {
            attributes.append(try NANAttribute(from: &reader))
        }
        return attributes
    }

    public static func writeList(_ attributes: [NANAttribute], to writer: inout WireWriter) {
        for attribute in attributes { attribute.write(to: &writer) }
    }
}

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

/// The body of one kind of NAN attribute: what follows the 3-octet header
/// `Attribute ID (1) | Length (2, LE)` (nan-wire-reference.md 2.1).
///
/// A body parser is handed a reader bounded to exactly `Length` octets and must consume
/// all of them: the attribute header's length and the content must agree.
public protocol NANAttributeBody: WireCodable, WireDescribable {
    static var attributeID: NANAttributeID { get }
}

extension NANAttributeBody {
    /// The structure name used in errors: "Service Descriptor attribute".
    public static var structureName: String { "\(attributeID.name) attribute" }

    /// The whole attribute, header included.
    public var attributeBytes: [UInt8] {
        var writer = WireWriter()
        writeAttribute(to: &writer)
        return writer.bytes
    }

    /// Writes `ID | Length | Body`.
    public func writeAttribute(to writer: inout WireWriter) {
        writer.write(Self.attributeID.rawValue)
        writer.withLength16LE { write(to: &$0) }
    }

    /// Parses a whole attribute, header included, as this kind; any other ID is an error.
    public init(attributeBytes bytes: some Collection<UInt8>) throws(WireError) {
        var reader = WireReader(Array(bytes), structure: Self.structureName)
        let id = try reader.readUInt8("Attribute ID")
        guard id == Self.attributeID.rawValue else {
            throw reader.error(
                .invalidValue(
                    "attribute ID 0x\(HexString.byte(id)) is not 0x\(HexString.byte(Self.attributeID.rawValue))"
                ),
                field: "Attribute ID",
                at: reader.offset - 1
            )
        }
        let length = Int(try reader.readUInt16LE("Length"))
        var body = try reader.subReader(length: length, field: "Length")
        try self.init(from: &body)
        try body.expectEnd()
        try reader.expectEnd()
    }
}

/// How frames and elements describe the NAN attributes they carry, without depending on
/// which attribute kinds ``NANAttribute`` decodes: the header fields always, then the
/// attribute's own fields when it describes itself, else its body octets under `raw`.
enum NANAttributeDescription {
    static func describe(_ attribute: NANAttribute) -> DecodedValue {
        let octets = attribute.wireBytes
        var fields = [
            DecodedField("attributeID", "Attribute ID", .named(UInt64(attribute.id.rawValue), attribute.id.name)),
            DecodedField("length", "Length", .unsigned(UInt64(max(0, octets.count - 3)))),
        ]
        if let describable = attribute as Any as? any WireDescribable {
            fields += describable.decodedFields
        } else {
            fields.append(DecodedField("raw", "Body", .bytes(Array(octets.dropFirst(3)))))
        }
        return .fields(fields)
    }
}

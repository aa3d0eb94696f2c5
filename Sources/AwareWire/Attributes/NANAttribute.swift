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

/// Service Descriptor Extension attribute (SDEA, 0x0E; nan-wire-reference.md 2.5).
///
/// ```
/// Instance ID (1) | Control (2, LE)
/// [Range Limit: Ingress (2, LE) | Egress (2, LE)]   if Control bit 8
/// [Service Update Indicator (1)]                     if Control bit 9
/// [Service Info Length (2, LE) | Service Info]      if octets remain
/// ```
///
/// Control bits 8 and 9 are not stored: they follow ``rangeLimit`` and
/// ``serviceUpdateIndicator``. Every other bit, reserved ones included, is kept as read.
public struct ServiceDescriptorExtensionAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.serviceDescriptorExtension

    /// Must equal the Instance ID of the SDA it extends (hostap matches them by instance ID).
    public var instanceID: UInt8
    public var rangeLimit: ServiceRangeLimit?
    public var serviceUpdateIndicator: UInt8?
    /// hostap's publish SSI: `len (LE16) || 50 6f 9a || 01 || DNS-SD TXT` (session A, frame 1).
    public var serviceInfo: SDEAServiceInfo?
    private var controlWithoutPresence: ServiceDescriptorExtensionControl

    public init(
        instanceID: UInt8,
        control: ServiceDescriptorExtensionControl = [],
        rangeLimit: ServiceRangeLimit? = nil,
        serviceUpdateIndicator: UInt8? = nil,
        serviceInfo: SDEAServiceInfo? = nil
    ) {
        self.instanceID = instanceID
        self.rangeLimit = rangeLimit
        self.serviceUpdateIndicator = serviceUpdateIndicator
        self.serviceInfo = serviceInfo
        controlWithoutPresence = control.subtracting(.presenceBits)
    }

    /// The Control field as written. Setting it keeps every bit except 8 and 9, which always
    /// follow the optional fields.
    public var control: ServiceDescriptorExtensionControl {
        get {
            var control = controlWithoutPresence
            if rangeLimit != nil { control.insert(.rangeLimitPresent) }
            if serviceUpdateIndicator != nil { control.insert(.serviceUpdateIndicatorPresent) }
            return control
        }
        set { controlWithoutPresence = newValue.subtracting(.presenceBits) }
    }
}

extension ServiceDescriptorExtensionAttribute: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        instanceID = try reader.readUInt8("Instance ID")
        let control = ServiceDescriptorExtensionControl(rawValue: try reader.readUInt16LE("Control"))
        controlWithoutPresence = control.subtracting(.presenceBits)
        rangeLimit = nil
        if control.contains(.rangeLimitPresent) {
            rangeLimit = ServiceRangeLimit(
                ingress: try reader.readUInt16LE("Range Limit Ingress"),
                egress: try reader.readUInt16LE("Range Limit Egress")
            )
        }
        serviceUpdateIndicator = nil
        if control.contains(.serviceUpdateIndicatorPresent) {
            serviceUpdateIndicator = try reader.readUInt8("Service Update Indicator")
        }
        serviceInfo = nil
        if !reader.isAtEnd {
            let length = Int(try reader.readUInt16LE("Service Info Length"))
            var body = try reader.subReader(length: length, field: "Service Info Length")
            serviceInfo = SDEAServiceInfo(body.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(instanceID)
        writer.writeUInt16LE(control.rawValue)
        if let rangeLimit {
            writer.writeUInt16LE(rangeLimit.ingress)
            writer.writeUInt16LE(rangeLimit.egress)
        }
        if let serviceUpdateIndicator { writer.write(serviceUpdateIndicator) }
        if let serviceInfo { writer.withLength16LE { $0.write(serviceInfo.octets) } }
    }
}

extension ServiceDescriptorExtensionAttribute: WireDescribable {
    public var decodedFields: [DecodedField] {
        let control = control
        func flag(_ key: String, _ label: String, _ bit: ServiceDescriptorExtensionControl) -> DecodedField {
            DecodedField(key, label, .flag(control.contains(bit)))
        }
        var fields = [
            DecodedField("instanceID", "Instance ID", .unsigned(UInt64(instanceID))),
            DecodedField("control", "Control", .bits(UInt64(control.rawValue), digits: 4)),
            flag("fsdRequired", "FSD Required", .fsdRequired),
            flag("fsdWithGAS", "FSD with GAS", .fsdWithGAS),
            flag("dataPathRequired", "Data Path Required", .dataPathRequired),
            DecodedField(
                "dataPathType",
                "Data Path Type",
                control.contains(.dataPathType) ? .named(1, "Reserved") : .named(0, "Unicast")
            ),
            flag("multicastType", "Multicast Type (reserved)", .multicastType),
            flag("qosRequired", "QoS Required", .qosRequired),
            flag("securityRequired", "Security Required", .securityRequired),
            flag("rangingRequired", "Ranging Required", .rangingRequired),
            flag("rangeLimitPresent", "Range Limit Present", .rangeLimitPresent),
            flag("serviceUpdateIndicatorPresent", "Service Update Indicator Present", .serviceUpdateIndicatorPresent),
            flag("gtkRequired", "GTK Required", .gtkRequired),
            DecodedField(
                "reservedControlBits",
                "Reserved (bits 11-15)",
                .bits(UInt64(control.intersection(.reserved).rawValue >> 11), digits: 2)
            ),
        ]
        if let rangeLimit {
            fields.append(
                DecodedField("rangeLimitIngress", "Range Limit Ingress", .unsigned(UInt64(rangeLimit.ingress)))
            )
            fields.append(DecodedField("rangeLimitEgress", "Range Limit Egress", .unsigned(UInt64(rangeLimit.egress))))
        }
        if let serviceUpdateIndicator {
            fields.append(
                DecodedField(
                    "serviceUpdateIndicator",
                    "Service Update Indicator",
                    .unsigned(UInt64(serviceUpdateIndicator))
                )
            )
        }
        switch serviceInfo {
        case .structured(let info):
            fields.append(DecodedField("serviceInfo", "Service Info", .fields(info.decodedFields)))
        case .unstructured(let octets):
            fields.append(DecodedField("serviceInfo", "Service Info", .bytes(octets)))
        case nil:
            break
        }
        return fields
    }
}

/// The SDEA Control field (2 octets, LE; nan-wire-reference.md 2.5, hostap `NAN_SDEA_CTRL_*`).
/// Every bit is representable, reserved bits included, so any parsed control round-trips.
public struct ServiceDescriptorExtensionControl: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let fsdRequired = Self(rawValue: 1 << 0)
    public static let fsdWithGAS = Self(rawValue: 1 << 1)
    public static let dataPathRequired = Self(rawValue: 1 << 2)
    /// Data Path Type: 0 = unicast; 1 is reserved.
    public static let dataPathType = Self(rawValue: 1 << 3)
    /// Bit 4, "multicast type": reserved in the reference's table.
    public static let multicastType = Self(rawValue: 1 << 4)
    public static let qosRequired = Self(rawValue: 1 << 5)
    public static let securityRequired = Self(rawValue: 1 << 6)
    public static let rangingRequired = Self(rawValue: 1 << 7)
    public static let rangeLimitPresent = Self(rawValue: 1 << 8)
    public static let serviceUpdateIndicatorPresent = Self(rawValue: 1 << 9)
    /// GTK Required: in hostap only, not in Wireshark's table.
    public static let gtkRequired = Self(rawValue: 1 << 10)
    /// Bits 11-15.
    public static let reserved = Self(rawValue: 0xF800)

    /// The bits that say which optional SDEA fields follow; an SDEA derives them from its fields.
    public static let presenceBits: Self = [.rangeLimitPresent, .serviceUpdateIndicatorPresent]
}

/// The SDEA Range Limit field: Ingress (2, LE) | Egress (2, LE), present when SDEA Control bit 8
/// is set (nan-wire-reference.md 2.5). The reference does not give the units.
public struct ServiceRangeLimit: Hashable, Sendable {
    public var ingress: UInt16
    public var egress: UInt16

    public init(ingress: UInt16, egress: UInt16) {
        self.ingress = ingress
        self.egress = egress
    }
}

/// The Service Info field of an SDEA, after its 2-octet length (nan-wire-reference.md 2.5).
///
/// The reference gives its content as OUI (3) + Service Protocol Type (1) + info. A field of
/// fewer than 4 octets cannot hold that header; rather than reject the attribute it is kept as
/// ``unstructured(_:)`` octets, so it still round-trips byte-exact and a caller can decide.
public enum SDEAServiceInfo: Hashable, Sendable {
    case structured(ServiceSpecificInfo)
    /// 0 to 3 octets: too short for OUI + Service Protocol Type.
    case unstructured([UInt8])

    /// Splits `octets` into the structured form when they hold at least OUI + type.
    public init(_ octets: [UInt8]) {
        if octets.count >= 4 {
            self = .structured(
                ServiceSpecificInfo(
                    oui: Array(octets[0..<3]),
                    protocolType: ServiceProtocolType(rawValue: octets[3]),
                    info: Array(octets[4...])
                )
            )
        } else {
            self = .unstructured(octets)
        }
    }

    /// The field's octets, as written after the length.
    public var octets: [UInt8] {
        switch self {
        case .structured(let info): info.oui + [info.protocolType.rawValue] + info.info
        case .unstructured(let octets): octets
        }
    }

    public var serviceSpecificInfo: ServiceSpecificInfo? {
        if case .structured(let info) = self { return info }
        return nil
    }
}

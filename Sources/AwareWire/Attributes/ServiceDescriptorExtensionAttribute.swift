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

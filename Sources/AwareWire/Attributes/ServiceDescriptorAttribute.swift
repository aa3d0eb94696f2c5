/// Service Descriptor attribute (SDA, 0x03): one publish, subscribe or follow-up
/// (nan-wire-reference.md 2.4).
///
/// ```
/// Service ID (6) | Instance ID (1) | Requestor Instance ID (1) | Service Control (1)
/// [Binding Bitmap (2, LE)]                         if SC bit 6
/// [Matching Filter Length (1) | Matching Filter]   if SC bit 2
/// [SRF Length (1) | SRF Control (1) | Address Set] if SC bit 3
/// [Service Info Length (1) | Service Info]         if SC bit 4
/// ```
///
/// The presence bits of Service Control are not stored: they follow the optional fields, so a
/// value can never claim a field it does not carry. Type, Discovery Range Limited and the
/// reserved bit 7 are stored as read.
public struct ServiceDescriptorAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.serviceDescriptor

    public var serviceID: ServiceID
    /// The sender's own publish/subscribe instance (1...255): "Publish ID" / "Subscribe ID".
    public var instanceID: UInt8
    /// The peer instance being answered; 0 in an unsolicited Publish or an active Subscribe.
    public var requestorInstanceID: UInt8
    public var bindingBitmap: UInt16?
    public var matchingFilter: MatchingFilter?
    public var serviceResponseFilter: ServiceResponseFilter?
    /// Service Info in the SDA: raw octets with a 1-octet length (legacy; hostap sends SSI in the
    /// SDEA instead, 2.5).
    public var serviceInfo: [UInt8]?
    private var controlWithoutPresence: ServiceControl

    public init(
        serviceID: ServiceID,
        instanceID: UInt8,
        requestorInstanceID: UInt8 = 0,
        type: ServiceControlType,
        discoveryRangeLimited: Bool = false,
        bindingBitmap: UInt16? = nil,
        matchingFilter: MatchingFilter? = nil,
        serviceResponseFilter: ServiceResponseFilter? = nil,
        serviceInfo: [UInt8]? = nil
    ) {
        self.serviceID = serviceID
        self.instanceID = instanceID
        self.requestorInstanceID = requestorInstanceID
        self.bindingBitmap = bindingBitmap
        self.matchingFilter = matchingFilter
        self.serviceResponseFilter = serviceResponseFilter
        self.serviceInfo = serviceInfo
        var control = ServiceControl(rawValue: 0)
        control.type = type
        control.discoveryRangeLimited = discoveryRangeLimited
        controlWithoutPresence = control
    }

    /// The Service Control octet as written. Setting it keeps the type, Discovery Range Limited
    /// and reserved bit 7; the presence bits always follow the optional fields.
    public var serviceControl: ServiceControl {
        get {
            var control = controlWithoutPresence
            control.bindingBitmapPresent = bindingBitmap != nil
            control.matchingFilterPresent = matchingFilter != nil
            control.serviceResponseFilterPresent = serviceResponseFilter != nil
            control.serviceInfoPresent = serviceInfo != nil
            return control
        }
        set {
            controlWithoutPresence = ServiceControl(rawValue: newValue.rawValue & ~ServiceControl.presenceBits)
        }
    }

    public var type: ServiceControlType {
        get { controlWithoutPresence.type }
        set { controlWithoutPresence.type = newValue }
    }

    public var discoveryRangeLimited: Bool {
        get { controlWithoutPresence.discoveryRangeLimited }
        set { controlWithoutPresence.discoveryRangeLimited = newValue }
    }
}

extension ServiceDescriptorAttribute: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        serviceID = try ServiceID(from: &reader)
        instanceID = try reader.readUInt8("Instance ID")
        requestorInstanceID = try reader.readUInt8("Requestor Instance ID")
        let control = ServiceControl(rawValue: try reader.readUInt8("Service Control"))
        controlWithoutPresence = ServiceControl(rawValue: control.rawValue & ~ServiceControl.presenceBits)
        bindingBitmap = nil
        if control.bindingBitmapPresent {
            bindingBitmap = try reader.readUInt16LE("Binding Bitmap")
        }
        matchingFilter = nil
        if control.matchingFilterPresent {
            let length = Int(try reader.readUInt8("Matching Filter Length"))
            var body = try reader.subReader(length: length, field: "Matching Filter Length")
            matchingFilter = try MatchingFilter(from: &body)
        }
        serviceResponseFilter = nil
        if control.serviceResponseFilterPresent {
            let length = Int(try reader.readUInt8("SRF Length"))
            var body = try reader.subReader(length: length, field: "SRF Length")
            serviceResponseFilter = try ServiceResponseFilter(from: &body)
        }
        serviceInfo = nil
        if control.serviceInfoPresent {
            let length = Int(try reader.readUInt8("Service Info Length"))
            serviceInfo = try reader.readBytes(length, "Service Info")
        }
    }

    /// Fields longer than their 1-octet length fields allow (a matching filter over 255 octets,
    /// an SRF or Service Info over 255) are programming errors of the caller.
    public func write(to writer: inout WireWriter) {
        writer.write(serviceID.octets)
        writer.write(instanceID)
        writer.write(requestorInstanceID)
        writer.write(serviceControl.rawValue)
        if let bindingBitmap { writer.writeUInt16LE(bindingBitmap) }
        if let matchingFilter { writer.withLength8 { matchingFilter.write(to: &$0) } }
        if let serviceResponseFilter { writer.withLength8 { serviceResponseFilter.write(to: &$0) } }
        if let serviceInfo { writer.withLength8 { $0.write(serviceInfo) } }
    }
}

extension ServiceDescriptorAttribute: WireDescribable {
    public var decodedFields: [DecodedField] {
        let control = serviceControl
        var fields = [
            DecodedField("serviceID", "Service ID", .bytes(serviceID.octets)),
            DecodedField("instanceID", "Instance ID", .unsigned(UInt64(instanceID))),
            DecodedField("requestorInstanceID", "Requestor Instance ID", .unsigned(UInt64(requestorInstanceID))),
            DecodedField("serviceControl", "Service Control", .bits(UInt64(control.rawValue), digits: 2)),
            DecodedField(
                "serviceControlType",
                "Service Control Type",
                .named(UInt64(control.type.rawValue), control.type.name)
            ),
            DecodedField("matchingFilterPresent", "Matching Filter Present", .flag(control.matchingFilterPresent)),
            DecodedField(
                "serviceResponseFilterPresent",
                "Service Response Filter Present",
                .flag(control.serviceResponseFilterPresent)
            ),
            DecodedField("serviceInfoPresent", "Service Info Present", .flag(control.serviceInfoPresent)),
            DecodedField("discoveryRangeLimited", "Discovery Range Limited", .flag(control.discoveryRangeLimited)),
            DecodedField("bindingBitmapPresent", "Binding Bitmap Present", .flag(control.bindingBitmapPresent)),
        ]
        if let bindingBitmap {
            fields.append(DecodedField("bindingBitmap", "Binding Bitmap", .bits(UInt64(bindingBitmap), digits: 4)))
        }
        if let matchingFilter {
            fields.append(
                DecodedField("matchingFilter", "Matching Filter", .list(matchingFilter.items.map { .bytes($0) }))
            )
        }
        if let serviceResponseFilter {
            fields.append(
                DecodedField(
                    "serviceResponseFilter",
                    "Service Response Filter",
                    .fields(serviceResponseFilter.decodedFields)
                )
            )
        }
        if let serviceInfo {
            fields.append(DecodedField("serviceInfo", "Service Info", .bytes(serviceInfo)))
        }
        return fields
    }
}

/// The SDA Service Control octet (nan-wire-reference.md 2.4; hostap `NAN_SRV_CTRL_*`).
///
/// | Bits | Meaning |
/// |---|---|
/// | 0-1 | Service Control Type |
/// | 2 | Matching Filter present |
/// | 3 | Service Response Filter present |
/// | 4 | Service Info present |
/// | 5 | Discovery Range Limited |
/// | 6 | Binding Bitmap present |
/// | 7 | reserved |
public struct ServiceControl: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The bits that say which optional SDA fields follow; an SDA derives them from its fields.
    public static let presenceBits: UInt8 = 0x5C

    public var type: ServiceControlType {
        get { ServiceControlType(control: rawValue) }
        set { rawValue = rawValue & ~0x03 | newValue.rawValue }
    }

    public var matchingFilterPresent: Bool {
        get { bit(2) }
        set { setBit(2, newValue) }
    }

    public var serviceResponseFilterPresent: Bool {
        get { bit(3) }
        set { setBit(3, newValue) }
    }

    public var serviceInfoPresent: Bool {
        get { bit(4) }
        set { setBit(4, newValue) }
    }

    public var discoveryRangeLimited: Bool {
        get { bit(5) }
        set { setBit(5, newValue) }
    }

    public var bindingBitmapPresent: Bool {
        get { bit(6) }
        set { setBit(6, newValue) }
    }

    public var reservedBit7: Bool {
        get { bit(7) }
        set { setBit(7, newValue) }
    }

    private func bit(_ index: UInt8) -> Bool { rawValue & (1 << index) != 0 }

    private mutating func setBit(_ index: UInt8, _ value: Bool) {
        if value { rawValue |= 1 << index } else { rawValue &= ~(1 << index) }
    }
}

/// Service Control Type: bits 0-1 of the SDA Service Control (nan-wire-reference.md 2.4).
/// hostap discards an SDA of type 3; it is kept here so that any octet round-trips.
public enum ServiceControlType: UInt8, Hashable, Sendable, CaseIterable {
    case publish = 0
    case subscribe = 1
    case followUp = 2
    case reserved = 3

    /// The type held in the low two bits of `control`.
    public init(control: UInt8) {
        switch control & 0x03 {
        case 0: self = .publish
        case 1: self = .subscribe
        case 2: self = .followUp
        default: self = .reserved
        }
    }

    public var name: String {
        switch self {
        case .publish: "Publish"
        case .subscribe: "Subscribe"
        case .followUp: "Follow-up"
        case .reserved: "Reserved"
        }
    }
}

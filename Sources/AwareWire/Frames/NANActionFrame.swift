import AwareCore

/// The body of a NAN Action Frame (nan-wire-reference.md 1.1):
/// `Category (4 or 9) | 09 | 50 6F 9A | 18 | OUI Subtype (1.2) | attributes`.
public struct NANActionFrame: Hashable, Sendable, WireCodable, WireDescribable {
    /// `NAN_NAF_OUI_TYPE`.
    public static let ouiType: UInt8 = 0x18
    public static let structureName = "NAN Action Frame"

    public var category: NANActionCategory
    public var subtype: NAFSubtype
    public var attributes: [NANAttribute]

    public init(category: NANActionCategory = .publicAction, subtype: NAFSubtype, attributes: [NANAttribute]) {
        self.category = category
        self.subtype = subtype
        self.attributes = attributes
    }

    public init(from reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let category = try NANActionHeader.read(from: &reader, ouiType: Self.ouiType)
        try self.init(category: category, subtypeFrom: &reader)
    }

    /// Reads the OUI Subtype and attributes after the 6-octet action header.
    init(category: NANActionCategory, subtypeFrom reader: inout WireReader) throws(WireError) {
        self.category = category
        subtype = NAFSubtype(rawValue: try reader.readUInt8("OUI Subtype"))
        attributes = try NANAttribute.readList(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        NANActionHeader.write(category: category, ouiType: Self.ouiType, to: &writer)
        writer.write(subtype.rawValue)
        NANAttribute.writeList(attributes, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        NANActionHeader.describe(category: category, ouiType: Self.ouiType, typeName: "NAF") + [
            DecodedField("ouiSubtype", "OUI Subtype", .named(UInt64(subtype.rawValue), subtype.name)),
            DecodedField("attributes", "Attributes", .list(attributes.map(NANAttributeDescription.describe))),
        ]
    }
}

/// The OUI Subtype of a NAN Action Frame (nan-wire-reference.md 1.2). Values without a
/// meaning are kept in ``reserved(_:)``.
public enum NAFSubtype: Hashable, Sendable {
    case rangingRequest
    case rangingResponse
    case rangingTermination
    case rangingReport
    case dataPathRequest
    case dataPathResponse
    case dataPathConfirm
    case dataPathKeyInstallment
    case dataPathTermination
    case scheduleRequest
    case scheduleResponse
    case scheduleConfirm
    case scheduleUpdateNotification
    case reserved(UInt8)

    private static let named: [NAFSubtype] = [
        .rangingRequest, .rangingResponse, .rangingTermination, .rangingReport, .dataPathRequest,
        .dataPathResponse, .dataPathConfirm, .dataPathKeyInstallment, .dataPathTermination, .scheduleRequest,
        .scheduleResponse, .scheduleConfirm, .scheduleUpdateNotification,
    ]

    public init(rawValue: UInt8) {
        self = (1...13).contains(rawValue) ? Self.named[Int(rawValue) - 1] : .reserved(rawValue)
    }

    public var rawValue: UInt8 {
        switch self {
        case .rangingRequest: 1
        case .rangingResponse: 2
        case .rangingTermination: 3
        case .rangingReport: 4
        case .dataPathRequest: 5
        case .dataPathResponse: 6
        case .dataPathConfirm: 7
        case .dataPathKeyInstallment: 8
        case .dataPathTermination: 9
        case .scheduleRequest: 10
        case .scheduleResponse: 11
        case .scheduleConfirm: 12
        case .scheduleUpdateNotification: 13
        case .reserved(let value): value
        }
    }

    public var name: String {
        switch self {
        case .rangingRequest: "Ranging Request"
        case .rangingResponse: "Ranging Response"
        case .rangingTermination: "Ranging Termination"
        case .rangingReport: "Ranging Report"
        case .dataPathRequest: "Data Path Request"
        case .dataPathResponse: "Data Path Response"
        case .dataPathConfirm: "Data Path Confirm"
        case .dataPathKeyInstallment: "Data Path Key Installment"
        case .dataPathTermination: "Data Path Termination"
        case .scheduleRequest: "Schedule Request"
        case .scheduleResponse: "Schedule Response"
        case .scheduleConfirm: "Schedule Confirm"
        case .scheduleUpdateNotification: "Schedule Update Notification"
        case .reserved: "Reserved"
        }
    }
}

/// The body of a NAN Service Discovery Frame (nan-wire-reference.md 1.1):
/// `Category (4 or 9) | 09 (Vendor Specific) | 50 6F 9A | 13 | attributes`.
public struct ServiceDiscoveryFrame: Hashable, Sendable, WireCodable, WireDescribable {
    /// `NAN_SDF_OUI_TYPE`.
    public static let ouiType: UInt8 = 0x13
    public static let structureName = "Service Discovery Frame"

    public var category: NANActionCategory
    public var attributes: [NANAttribute]

    public init(category: NANActionCategory = .publicAction, attributes: [NANAttribute]) {
        self.category = category
        self.attributes = attributes
    }

    /// Reads a whole action body; it must be an SDF.
    public init(from reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let category = try NANActionHeader.read(from: &reader, ouiType: Self.ouiType)
        try self.init(category: category, attributesFrom: &reader)
    }

    /// Reads the attributes after the 6-octet action header.
    init(category: NANActionCategory, attributesFrom reader: inout WireReader) throws(WireError) {
        self.category = category
        attributes = try NANAttribute.readList(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        NANActionHeader.write(category: category, ouiType: Self.ouiType, to: &writer)
        NANAttribute.writeList(attributes, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        NANActionHeader.describe(category: category, ouiType: Self.ouiType, typeName: "SDF") + [
            DecodedField("attributes", "Attributes", .list(attributes.map(NANAttributeDescription.describe)))
        ]
    }
}

extension ServiceDiscoveryFrame {
    /// "SDF Publish", "SDF Subscribe", "SDF Follow-up" (from the Service Descriptor
    /// attributes; several in one frame are joined), or "SDF" without one.
    public var summary: String {
        var kinds: [String] = []
        for case .serviceDescriptor(let sda) in attributes where !kinds.contains(sda.type.name) {
            kinds.append(sda.type.name)
        }
        return kinds.isEmpty ? "SDF" : "SDF " + kinds.joined(separator: "+")
    }
}

/// The six octets SDFs and NAFs share (nan-wire-reference.md 1.1):
/// `Category | Public Action = 09 | OUI 50 6F 9A | OUI Type`.
enum NANActionHeader {
    static let length = 6

    /// The OUI Type when `body` is an SDF or NAF (category 4 or 9, hostap's receive rule in
    /// nan-wire-reference.md 1.1), else nil.
    static func ouiType(of body: ArraySlice<UInt8>) -> UInt8? {
        guard body.count >= length,
            let first = body.first, NANActionCategory(rawValue: first) != nil,
            body[body.startIndex + 1] == NANActionCategory.vendorSpecificAction,
            body.dropFirst(2).prefix(3).elementsEqual(NANActionCategory.wfaOUI)
        else { return nil }
        return body[body.startIndex + 5]
    }

    static func read(from reader: inout WireReader, ouiType: UInt8) throws(WireError) -> NANActionCategory {
        let rawCategory = try reader.readUInt8("Category")
        guard let category = NANActionCategory(rawValue: rawCategory) else {
            throw reader.error(
                .invalidValue("category \(rawCategory) is not 4 or 9"),
                field: "Category",
                at: reader.offset - 1
            )
        }
        let action = try reader.readUInt8("Public Action")
        guard action == NANActionCategory.vendorSpecificAction else {
            throw reader.error(
                .invalidValue("action \(action) is not 9 (Vendor Specific)"),
                field: "Public Action",
                at: reader.offset - 1
            )
        }
        let oui = try reader.readBytes(3, "OUI")
        guard oui == NANActionCategory.wfaOUI else {
            throw reader.error(
                .invalidValue("OUI \(HexString.encode(oui)) is not 506f9a"),
                field: "OUI",
                at: reader.offset - 3
            )
        }
        let type = try reader.readUInt8("OUI Type")
        guard type == ouiType else {
            throw reader.error(
                .invalidValue("OUI type 0x\(HexString.byte(type)) is not 0x\(HexString.byte(ouiType))"),
                field: "OUI Type",
                at: reader.offset - 1
            )
        }
        return category
    }

    static func write(category: NANActionCategory, ouiType: UInt8, to writer: inout WireWriter) {
        writer.write(category.rawValue)
        writer.write(NANActionCategory.vendorSpecificAction)
        writer.write(NANActionCategory.wfaOUI)
        writer.write(ouiType)
    }

    static func describe(category: NANActionCategory, ouiType: UInt8, typeName: String) -> [DecodedField] {
        [
            DecodedField("category", "Category", category.decoded),
            DecodedField("publicAction", "Public Action", .named(9, "Vendor Specific")),
            DecodedField("oui", "OUI", .bytes(NANActionCategory.wfaOUI)),
            DecodedField("ouiType", "OUI Type", .named(UInt64(ouiType), typeName)),
        ]
    }
}

/// The Action frame Category that carries NAN SDFs and NAFs (nan-wire-reference.md 1.1):
/// 4 = Public, 9 = Protected Dual of Public Action (hostap switches unicast frames to a
/// paired peer to 9, 3.8).
public enum NANActionCategory: UInt8, Hashable, Sendable {
    case publicAction = 4
    case protectedDualOfPublicAction = 9

    public var name: String {
        switch self {
        case .publicAction: "Public"
        case .protectedDualOfPublicAction: "Protected Dual of Public Action"
        }
    }

    var decoded: DecodedValue { .named(UInt64(rawValue), name) }

    /// The Public Action field value "Vendor Specific" (`WLAN_PA_VENDOR_SPECIFIC`).
    static let vendorSpecificAction: UInt8 = 9
    /// OUI 50-6F-9A (Wi-Fi Alliance).
    static let wfaOUI: [UInt8] = [0x50, 0x6F, 0x9A]
}

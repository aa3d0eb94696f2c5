/// One element of a PASN Authentication frame or a NAN Beacon body, typed where AwareBench
/// knows it (nan-wire-reference.md 3.4.1, 1.4) and kept byte-exact otherwise.
///
/// Element fragments (ID 242) that continue a 255-octet element are joined into it on read
/// and split again on write (``ElementFragments``); an ``other(_:)`` element may therefore
/// hold more than 255 information octets.
public enum FrameElement: Hashable, Sendable, WireDescribable {
    case rsn(RSNElement)
    case rsnExtension(RSNExtensionElement)
    case wrappedData(WrappedDataElement)
    case pasnParameters(PASNParametersElement)
    case mic(MICElement)
    case supportedGroups(SupportedGroupsElement)
    case nan(NANElement)
    case other(InformationElement)

    /// Which elements to type.
    public enum Context: Hashable, Sendable {
        /// A PASN Authentication frame; `fromResponder` selects the PASN Parameters form
        /// (transaction sequence 2 comes from the responder).
        case pasn(fromResponder: Bool)
        /// A beacon: only the NAN element is typed, everything else is kept raw.
        case beacon
    }

    /// Reads one element (with its fragments).
    public init(from reader: inout WireReader, context: Context) throws(WireError) {
        var element = try ElementFragments.read(from: &reader)
        let id = element.id
        let extensionID = id == InformationElement.extensionID ? element.information.first : nil
        switch (context, id, extensionID) {
        case (_, NANElement.elementID, _) where NANElement.matches(id: id, information: element.information):
            self = .nan(try NANElement(information: &element.reader))
        case (.beacon, _, _):
            self = .other(InformationElement(id: id, body: element.reader.readRemaining()))
        case (.pasn, RSNElement.elementID, _):
            self = .rsn(try RSNElement(information: &element.reader))
        case (.pasn, RSNExtensionElement.elementID, _):
            self = .rsnExtension(try RSNExtensionElement(information: &element.reader))
        case (.pasn, MICElement.elementID, _):
            self = .mic(try MICElement(information: &element.reader))
        case (.pasn, _, .some(WrappedDataElement.extensionID)):
            _ = try element.reader.readUInt8("Element ID Extension")
            self = .wrappedData(WrappedDataElement(information: &element.reader))
        case (.pasn(let fromResponder), _, .some(PASNParametersElement.extensionID)):
            _ = try element.reader.readUInt8("Element ID Extension")
            self = .pasnParameters(
                try PASNParametersElement(information: &element.reader, fromResponder: fromResponder)
            )
        case (.pasn, _, .some(SupportedGroupsElement.extensionID)):
            _ = try element.reader.readUInt8("Element ID Extension")
            self = .supportedGroups(try SupportedGroupsElement(information: &element.reader))
        default:
            self = .other(InformationElement(id: id, body: element.reader.readRemaining()))
        }
        try element.reader.expectEnd()
    }

    /// Reads elements until `reader` is exhausted; an element running past the end is an error.
    public static func readList(from reader: inout WireReader, context: Context) throws(WireError) -> [FrameElement] {
        var elements: [FrameElement] = []
        while !reader.isAtEnd { elements.append(try FrameElement(from: &reader, context: context)) }
        return elements
    }

    public static func writeList(_ elements: [FrameElement], to writer: inout WireWriter) {
        for element in elements { element.write(to: &writer) }
    }

    public func write(to writer: inout WireWriter) {
        switch self {
        case .rsn(let element): element.write(to: &writer)
        case .rsnExtension(let element): element.write(to: &writer)
        case .wrappedData(let element): element.write(to: &writer)
        case .pasnParameters(let element): element.write(to: &writer)
        case .mic(let element): element.write(to: &writer)
        case .supportedGroups(let element): element.write(to: &writer)
        case .nan(let element): element.write(to: &writer)
        case .other(let element): ElementFragments.write(id: element.id, information: element.body, to: &writer)
        }
    }

    /// The element's octets, fragments included.
    public var wireBytes: [UInt8] {
        var writer = WireWriter()
        write(to: &writer)
        return writer.bytes
    }

    /// The Element ID.
    public var id: UInt8 {
        switch self {
        case .rsn: RSNElement.elementID
        case .rsnExtension: RSNExtensionElement.elementID
        case .wrappedData, .pasnParameters, .supportedGroups: InformationElement.extensionID
        case .mic: MICElement.elementID
        case .nan: NANElement.elementID
        case .other(let element): element.id
        }
    }

    /// The Element ID Extension of ID-255 elements.
    public var extensionID: UInt8? {
        switch self {
        case .wrappedData: WrappedDataElement.extensionID
        case .pasnParameters: PASNParametersElement.extensionID
        case .supportedGroups: SupportedGroupsElement.extensionID
        case .other(let element): element.extensionID
        default: nil
        }
    }

    /// The element's name, as IEEE 802.11 and nan-wire-reference.md 3.4.1 call it.
    public var name: String {
        switch self {
        case .rsn: "RSNE"
        case .rsnExtension: "RSNXE"
        case .wrappedData: "Wrapped Data"
        case .pasnParameters: "PASN Parameters"
        case .mic: "MIC"
        case .supportedGroups: "Supported Groups"
        case .nan: "NAN element"
        case .other(let element):
            switch element.id {
            case 0: "SSID"
            case 1: "Supported Rates"
            case 3: "DSSS Parameter Set"
            case 5: "TIM"
            case 50: "Extended Supported Rates"
            case 221: "Vendor Specific"
            case ElementFragments.fragmentID: "Fragment"
            case InformationElement.extensionID: "Element ID Extension \(element.extensionID.map(String.init) ?? "?")"
            default: "Element \(element.id)"
            }
        }
    }

    public var decodedFields: [DecodedField] {
        let octets = wireBytes
        var fields = [
            DecodedField("elementID", "Element ID", .named(UInt64(id), name)),
            DecodedField("length", "Length", .unsigned(UInt64(octets.count >= 2 ? octets[1] : 0))),
        ]
        if let extensionID {
            fields.append(DecodedField("elementIDExtension", "Element ID Extension", .unsigned(UInt64(extensionID))))
        }
        switch self {
        case .rsn(let element): fields += element.decodedFields
        case .rsnExtension(let element): fields += element.decodedFields
        case .wrappedData(let element): fields += element.decodedFields
        case .pasnParameters(let element): fields += element.decodedFields
        case .mic(let element): fields += element.decodedFields
        case .supportedGroups(let element): fields += element.decodedFields
        case .nan(let element): fields += element.decodedFields
        case .other(let element):
            fields.append(
                DecodedField("raw", "Information", .bytes(Array(element.body.dropFirst(extensionID == nil ? 0 : 1))))
            )
        }
        return fields
    }
}

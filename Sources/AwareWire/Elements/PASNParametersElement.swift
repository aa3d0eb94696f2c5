/// The PASN Parameters element (ID 255, Element ID Extension 100; IEEE 802.11-2020
/// 9.4.2.304; nan-wire-reference.md 3.4.1, item 4):
/// `Control (1) | Wrapped Data Format (1) | [Comeback Info] | [Group (2) | Key Length (1) | Key]`.
/// Control b0 = Comeback Info present, b1 = Group and Key present, b2-b7 reserved (kept).
///
/// Comeback Info starts with Comeback After only in frames from the responder, so a parser
/// must be told the sender (``init(from:fromResponder:)``); the plain ``init(from:)`` reads
/// the initiator's form (Authentication transaction sequence 1 or 3).
public struct PASNParametersElement: Hashable, Sendable, WireCodable, WireDescribable {
    public static let extensionID: UInt8 = 100
    public static let structureName = "PASN Parameters element"

    public var wrappedDataFormat: WrappedDataFormat
    public var comebackInfo: PASNComebackInfo?
    public var ephemeralKey: PASNEphemeralKey?
    /// Control b2-b7 as received (reserved).
    public var reservedControlBits: UInt8

    public init(
        wrappedDataFormat: WrappedDataFormat,
        comebackInfo: PASNComebackInfo? = nil,
        ephemeralKey: PASNEphemeralKey? = nil,
        reservedControlBits: UInt8 = 0
    ) {
        self.wrappedDataFormat = wrappedDataFormat
        self.comebackInfo = comebackInfo
        self.ephemeralKey = ephemeralKey
        self.reservedControlBits = reservedControlBits & 0xFC
    }

    /// The Control field as written.
    public var control: UInt8 {
        reservedControlBits & 0xFC | (comebackInfo == nil ? 0 : 0x01) | (ephemeralKey == nil ? 0 : 0x02)
    }

    public init(from reader: inout WireReader) throws(WireError) {
        try self.init(from: &reader, fromResponder: false)
    }

    public init(from reader: inout WireReader, fromResponder: Bool) throws(WireError) {
        var information = try ElementFragments.read(
            from: &reader,
            expecting: InformationElement.extensionID,
            extensionID: Self.extensionID,
            structure: Self.structureName
        )
        try self.init(information: &information, fromResponder: fromResponder)
        try information.expectEnd()
    }

    /// Parses the information after the Element ID Extension; the caller checks the end.
    public init(information reader: inout WireReader, fromResponder: Bool) throws(WireError) {
        reader.structure = Self.structureName
        let control = try reader.readUInt8("Control")
        wrappedDataFormat = WrappedDataFormat(rawValue: try reader.readUInt8("Wrapped Data Format"))
        comebackInfo = control & 0x01 != 0 ? try PASNComebackInfo(from: &reader, fromResponder: fromResponder) : nil
        ephemeralKey = control & 0x02 != 0 ? try PASNEphemeralKey(from: &reader) : nil
        reservedControlBits = control & 0xFC
    }

    /// The information octets, Element ID Extension first.
    public var information: [UInt8] {
        var writer = WireWriter()
        writer.write(Self.extensionID)
        writer.write(control)
        writer.write(wrappedDataFormat.rawValue)
        comebackInfo?.write(to: &writer)
        ephemeralKey?.write(to: &writer)
        return writer.bytes
    }

    public func write(to writer: inout WireWriter) {
        ElementFragments.write(id: InformationElement.extensionID, information: information, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("control", "Control", .bits(UInt64(control), digits: 2)),
            DecodedField("comebackInfoPresent", "Comeback Info Present", .flag(comebackInfo != nil)),
            DecodedField("groupAndKeyPresent", "Group and Key Present", .flag(ephemeralKey != nil)),
            DecodedField(
                "wrappedDataFormat",
                "Wrapped Data Format",
                .named(UInt64(wrappedDataFormat.rawValue), wrappedDataFormat.name)
            ),
        ]
        if let comebackInfo {
            fields.append(DecodedField("comebackInfo", "Comeback Info", .fields(comebackInfo.decodedFields)))
        }
        if let ephemeralKey {
            fields.append(
                DecodedField("ephemeralKey", "Group and Ephemeral Public Key", .fields(ephemeralKey.decodedFields))
            )
        }
        return fields
    }
}

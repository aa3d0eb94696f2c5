/// An element under Element ID 255 told apart by its Element ID Extension (Wrapped Data,
/// Supported Groups; nan-wire-reference.md 3.4.1). It is read with its fragments joined
/// (``ElementFragments``) and then parsed from the octets after the extension ID;
/// ``FrameElement`` calls `init(information:)` on an element it has already read.
public protocol ExtensionElementBody: WireCodable, WireDescribable {
    static var extensionID: UInt8 { get }
    static var structureName: String { get }
    /// Parses the information after the Element ID Extension.
    init(information reader: inout WireReader) throws(WireError)
    /// Writes the information after the Element ID Extension.
    func writeInformation(to writer: inout WireWriter)
}

extension ExtensionElementBody {
    public init(from reader: inout WireReader) throws(WireError) {
        var body = try ElementFragments.read(
            from: &reader,
            expecting: InformationElement.extensionID,
            extensionID: Self.extensionID,
            structure: Self.structureName
        )
        try self.init(information: &body)
    }

    public func write(to writer: inout WireWriter) {
        var information = WireWriter()
        information.write(Self.extensionID)
        writeInformation(to: &information)
        ElementFragments.write(id: InformationElement.extensionID, information: information.bytes, to: &writer)
    }
}

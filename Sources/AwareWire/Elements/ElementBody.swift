/// An element with an Element ID of its own (MIC, NAN, RSN, RSNX; nan-wire-reference.md
/// 3.4.1). It is read with its fragments joined (``ElementFragments``) and then parsed from
/// its information octets; ``FrameElement`` calls `init(information:)` on an element it has
/// already read.
public protocol ElementBody: WireCodable, WireDescribable {
    static var elementID: UInt8 { get }
    static var structureName: String { get }
    /// Parses the information octets (after Element ID and Length).
    init(information reader: inout WireReader) throws(WireError)
    /// The information octets.
    var information: [UInt8] { get }
}

extension ElementBody {
    public init(from reader: inout WireReader) throws(WireError) {
        var body = try ElementFragments.read(from: &reader, expecting: Self.elementID, structure: Self.structureName)
        try self.init(information: &body)
    }

    public func write(to writer: inout WireWriter) {
        ElementFragments.write(id: Self.elementID, information: information, to: &writer)
    }
}

/// An SAE commit: `Group (2, LE) | Scalar | Element (x || y)` and any elements after it
/// (password identifier, rejected groups, token container), kept raw.
public struct SAECommit: Hashable, Sendable {
    public var group: SAEGroup
    public var scalar: [UInt8]
    /// x || y, each the group's prime length.
    public var element: [UInt8]
    /// Elements after the commit element, or the whole body for a group we cannot lay out.
    public var trailing: [UInt8]

    public init(group: SAEGroup, scalar: [UInt8], element: [UInt8], trailing: [UInt8] = []) {
        self.group = group
        self.scalar = scalar
        self.element = element
        self.trailing = trailing
    }

    public init(from reader: inout WireReader) throws(WireError) {
        group = SAEGroup(rawValue: try reader.readUInt16LE("Finite Cyclic Group"))
        guard let length = group.primeLength else {
            scalar = []
            element = []
            trailing = reader.readRemaining()
            return
        }
        scalar = try reader.readBytes(length, "Scalar")
        element = try reader.readBytes(2 * length, "Element")
        trailing = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(group.rawValue)
        writer.write(scalar)
        writer.write(element)
        writer.write(trailing)
    }
}

extension SAECommit: WireDescribable {
    public var decodedFields: [DecodedField] {
        var fields: [DecodedField] = [
            .init("group", "Finite Cyclic Group", .named(UInt64(group.rawValue), group.description))
        ]
        if group.primeLength != nil {
            let half = element.count / 2
            fields.append(.init("scalar", "Scalar", .bytes(scalar)))
            fields.append(.init("elementX", "Element x", .bytes(Array(element[..<half]))))
            fields.append(.init("elementY", "Element y", .bytes(Array(element[half...]))))
        }
        if !trailing.isEmpty { fields.append(.init("raw", "Undecoded", .bytes(trailing))) }
        return fields
    }
}

import AwareCore

/// A cursor over octets that never reads past its end.
///
/// A reader covers one structure. Reading a length-prefixed body hands out a child
/// reader bounded to exactly that body (``subReader(length:structure:field:)``), so a
/// lying length can never make a parser wander into the next attribute. Offsets in
/// errors are counted from the start of the outermost buffer, because child readers
/// share the parent's indices.
public struct WireReader: Sendable {
    /// The octets of this structure, indexed as in the outermost buffer.
    public let bytes: ArraySlice<UInt8>
    /// Index of the next octet to read.
    public private(set) var position: Int
    /// The start index of the outermost buffer, so offsets are relative to it.
    public let origin: Int
    /// The structure this reader covers, named in errors.
    public var structure: String

    public init(_ bytes: [UInt8], structure: String) {
        self.init(bytes[...], structure: structure)
    }

    public init(_ bytes: ArraySlice<UInt8>, structure: String) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.origin = bytes.startIndex
        self.structure = structure
    }

    /// A reader over octets that sit `offset` octets into a longer input, so that errors give
    /// offsets in that input: a capture read block by block (``CaptureStreamReader``) keeps
    /// only one block in memory, and its errors still name the octet in the file.
    public init(_ bytes: ArraySlice<UInt8>, structure: String, startingAt offset: Int) {
        self.init(bytes: bytes, origin: bytes.startIndex - offset, structure: structure)
    }

    private init(bytes: ArraySlice<UInt8>, origin: Int, structure: String) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.origin = origin
        self.structure = structure
    }

    /// Offset of the next octet from the start of the outermost buffer.
    public var offset: Int { position - origin }
    /// Octets left in this structure.
    public var remaining: Int { bytes.endIndex - position }
    public var isAtEnd: Bool { position >= bytes.endIndex }

    /// An error at the current position, for parsers that find a bad value.
    public func error(_ kind: WireError.Kind, field: String? = nil, at offset: Int? = nil) -> WireError {
        WireError(kind, structure: structure, field: field, offset: offset ?? self.offset)
    }

    /// Fails unless `count` octets remain.
    public func require(_ count: Int, field: String) throws(WireError) {
        guard count >= 0, count <= remaining else {
            throw error(.truncated(need: count, have: remaining), field: field)
        }
    }

    public mutating func readUInt8(_ field: String) throws(WireError) -> UInt8 {
        try require(1, field: field)
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func readUInt16LE(_ field: String) throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readInteger(2, littleEndian: true, field))
    }

    public mutating func readUInt16BE(_ field: String) throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readInteger(2, littleEndian: false, field))
    }

    public mutating func readUInt32LE(_ field: String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readInteger(4, littleEndian: true, field))
    }

    public mutating func readUInt32BE(_ field: String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readInteger(4, littleEndian: false, field))
    }

    public mutating func readUInt64LE(_ field: String) throws(WireError) -> UInt64 {
        try readInteger(8, littleEndian: true, field)
    }

    public mutating func readUInt64BE(_ field: String) throws(WireError) -> UInt64 {
        try readInteger(8, littleEndian: false, field)
    }

    /// Reads an unsigned integer of `width` octets (1...8).
    public mutating func readInteger(_ width: Int, littleEndian: Bool, _ field: String) throws(WireError) -> UInt64 {
        precondition((1...8).contains(width), "integer width is a programming constant")
        try require(width, field: field)
        var value: UInt64 = 0
        for i in 0..<width {
            let octet = UInt64(bytes[position + i])
            if littleEndian {
                value |= octet << (8 * UInt64(i))
            } else {
                value = (value << 8) | octet
            }
        }
        position += width
        return value
    }

    public mutating func readBytes(_ count: Int, _ field: String) throws(WireError) -> [UInt8] {
        try require(count, field: field)
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    public mutating func readMAC(_ field: String) throws(WireError) -> MACAddress {
        MACAddress(try readBytes(6, field))!
    }

    /// Everything left in this structure.
    public mutating func readRemaining() -> [UInt8] {
        defer { position = bytes.endIndex }
        return Array(bytes[position...])
    }

    /// Consumes `length` octets and returns a reader bounded to them.
    public mutating func subReader(length: Int, structure: String? = nil, field: String) throws(WireError) -> WireReader
    {
        guard length >= 0, length <= remaining else {
            throw error(.lengthMismatch(declared: length, actual: remaining), field: field)
        }
        let body = bytes[position..<(position + length)]
        position += length
        return WireReader(bytes: body, origin: origin, structure: structure ?? self.structure)
    }

    /// Returns the octets in front of the cursor without consuming them.
    public func peek(_ count: Int) -> ArraySlice<UInt8> {
        bytes[position..<min(bytes.endIndex, position + max(0, count))]
    }

    /// Fails if anything is left: a structure's length must match its content exactly.
    public func expectEnd() throws(WireError) {
        guard isAtEnd else { throw error(.trailingOctets(count: remaining)) }
    }
}

/// Why a byte string could not be read as the structure it claims to be.
///
/// Every parse failure in AwareWire is one of these, never a trap. It names the
/// structure (frame, element or attribute), the field when one is known, and the byte
/// offset from the start of the buffer handed to the outermost parser, so a person can
/// find the octet in a hex dump and a fuzzer can bucket failures.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The field needs `need` octets but only `have` remain in its structure.
        case truncated(need: Int, have: Int)
        /// A length field declares more (or fewer) octets than its content takes.
        case lengthMismatch(declared: Int, actual: Int)
        /// Octets remain after the last field the structure defines.
        case trailingOctets(count: Int)
        /// A length field declares more octets than the reader takes for one structure: a
        /// cap that keeps a lying length from making a reader wait for, or hold, gigabytes.
        case tooLong(declared: Int, limit: Int)
        /// The field holds a value the structure forbids; the text says which rule.
        case invalidValue(String)
    }

    public var kind: Kind
    /// The structure being read, in the protocol's words ("Service Descriptor attribute").
    public var structure: String
    /// The field being read, when the failure belongs to one ("Service ID").
    public var field: String?
    /// Byte offset of the failing field from the start of the outermost buffer.
    public var offset: Int

    public init(_ kind: Kind, structure: String, field: String? = nil, offset: Int) {
        self.kind = kind
        self.structure = structure
        self.field = field
        self.offset = offset
    }

    public var description: String {
        var text = structure
        if let field { text += ", \(field)" }
        text += " at offset \(offset): "
        switch kind {
        case .truncated(let need, let have):
            text += "truncated, needs \(need) octet\(need == 1 ? "" : "s") but \(have) remain"
        case .lengthMismatch(let declared, let actual):
            text += "length field says \(declared) octets but the content takes \(actual)"
        case .trailingOctets(let count):
            text += "\(count) unexpected octet\(count == 1 ? "" : "s") after the last field"
        case .tooLong(let declared, let limit):
            text += "length field says \(declared) octets, more than the \(limit) this reader accepts"
        case .invalidValue(let rule):
            text += rule
        }
        return text
    }
}

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
        case .invalidValue(let rule):
            text += rule
        }
        return text
    }
}

/// The Type nibble (b0-3 of Type and Status) of a data-path attribute: ``NDLType`` (NDL,
/// nan-wire-reference.md 2.9) or ``NDPType`` (NDP and NDPE, 2.10). The two attributes give
/// the codes different meanings, so each has its own enumeration; ``DataPathHeader`` packs
/// either one with the Status nibble.
public protocol DataPathType: Hashable, Sendable {
    /// Reads the 4-bit code; higher bits are ignored.
    init(code: UInt8)
    /// The 4-bit code.
    var code: UInt8 { get }
    var name: String { get }
}

extension DataPathType {
    public var decodedValue: DecodedValue { .named(UInt64(code), name) }
}

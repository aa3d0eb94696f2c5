import AwareCore

/// Appends octets. Little-endian unless a method says otherwise, as NAN attributes are
/// (nan-wire-reference.md, Conventions); EAPOL-Key fields use the big-endian methods.
public struct WireWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func write(_ value: UInt8) { bytes.append(value) }

    public mutating func write(_ octets: some Sequence<UInt8>) { bytes.append(contentsOf: octets) }

    public mutating func writeUInt16LE(_ value: UInt16) { writeInteger(UInt64(value), width: 2, littleEndian: true) }
    public mutating func writeUInt16BE(_ value: UInt16) { writeInteger(UInt64(value), width: 2, littleEndian: false) }
    public mutating func writeUInt32LE(_ value: UInt32) { writeInteger(UInt64(value), width: 4, littleEndian: true) }
    public mutating func writeUInt32BE(_ value: UInt32) { writeInteger(UInt64(value), width: 4, littleEndian: false) }
    public mutating func writeUInt64LE(_ value: UInt64) { writeInteger(value, width: 8, littleEndian: true) }
    public mutating func writeUInt64BE(_ value: UInt64) { writeInteger(value, width: 8, littleEndian: false) }

    public mutating func writeInteger(_ value: UInt64, width: Int, littleEndian: Bool) {
        for i in 0..<width {
            let shift = UInt64(8 * (littleEndian ? i : width - 1 - i))
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    public mutating func write(_ address: MACAddress) { bytes.append(contentsOf: address.octets) }

    /// Writes a 1-octet length, then what `body` writes. Bodies over 255 octets are a
    /// programming error in the caller: values are validated when they are built.
    public mutating func withLength8(_ body: (inout WireWriter) -> Void) {
        let start = bytes.count
        bytes.append(0)
        body(&self)
        let length = bytes.count - start - 1
        precondition(length <= 0xFF, "1-octet length field overflow (\(length) octets)")
        bytes[start] = UInt8(length)
    }

    /// Writes a 2-octet little-endian length, then what `body` writes.
    public mutating func withLength16LE(_ body: (inout WireWriter) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0])
        body(&self)
        let length = bytes.count - start - 2
        precondition(length <= 0xFFFF, "2-octet length field overflow (\(length) octets)")
        bytes[start] = UInt8(length & 0xFF)
        bytes[start + 1] = UInt8(length >> 8)
    }

    /// Writes a 2-octet big-endian length, then what `body` writes.
    public mutating func withLength16BE(_ body: (inout WireWriter) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0])
        body(&self)
        let length = bytes.count - start - 2
        precondition(length <= 0xFFFF, "2-octet length field overflow (\(length) octets)")
        bytes[start] = UInt8(length >> 8)
        bytes[start + 1] = UInt8(length & 0xFF)
    }
}

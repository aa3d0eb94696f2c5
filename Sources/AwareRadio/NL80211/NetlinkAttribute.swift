import CNetlink

/// One netlink attribute (`struct nlattr`, `linux/netlink.h`): a type and either payload
/// octets or, for a nested attribute, a list of attributes.
///
/// A parsed attribute is `.nested` when its header carries `NLA_F_NESTED` (libnl 3.7's
/// `nla_nest_start` sets it, platform-notes.md 2.2). The kernel does not always set that
/// flag, so `nestedAttributes()` can also read a `.payload` as nested attributes when the
/// caller knows the type is nested.
public struct NetlinkAttribute: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case payload([UInt8])
        case nested([NetlinkAttribute])
    }

    /// The attribute type without the `NLA_F_NESTED` / `NLA_F_NET_BYTEORDER` bits.
    public var type: UInt16
    public var value: Value
    /// `NLA_F_NET_BYTEORDER`: the payload is big-endian. Kept so a parsed header serializes back
    /// unchanged.
    public var networkByteOrder: Bool

    public init(type: UInt16, value: Value, networkByteOrder: Bool = false) {
        self.type = type
        self.value = value
        self.networkByteOrder = networkByteOrder
    }

    public static func u8(_ type: UInt16, _ value: UInt8) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .payload([value]))
    }

    /// Netlink integers are in host byte order; every platform this runs on is little-endian.
    public static func u16(_ type: UInt16, _ value: UInt16) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .payload(littleEndianOctets(UInt64(value), count: 2)))
    }

    public static func u32(_ type: UInt16, _ value: UInt32) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .payload(littleEndianOctets(UInt64(value), count: 4)))
    }

    public static func u64(_ type: UInt16, _ value: UInt64) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .payload(littleEndianOctets(value, count: 8)))
    }

    /// A flag attribute: present means set, with no payload.
    public static func flag(_ type: UInt16) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .payload([]))
    }

    public static func bytes(_ type: UInt16, _ payload: [UInt8]) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .payload(payload))
    }

    public static func nested(_ type: UInt16, _ children: [NetlinkAttribute]) -> NetlinkAttribute {
        NetlinkAttribute(type: type, value: .nested(children))
    }

    /// The payload octets (empty for a nested attribute, whose octets are its children).
    public var payload: [UInt8] {
        if case .payload(let octets) = value { return octets }
        return []
    }

    /// The first child of `type`, for a nested attribute.
    public func child(_ type: UInt16) -> NetlinkAttribute? {
        guard case .nested(let children) = value else { return nil }
        return children.first { $0.type == type }
    }

    /// The children: as parsed for `.nested`, or parsed now from the payload.
    public func nestedAttributes() throws(RadioError) -> [NetlinkAttribute] {
        switch value {
        case .nested(let children):
            return children
        case .payload(let octets):
            return try NetlinkAttributeReader.attributes(nestedIn: octets, type: type)
        }
    }

    public func u8Value() throws(RadioError) -> UInt8 {
        UInt8(truncatingIfNeeded: try unsigned(size: 1))
    }

    public func u16Value() throws(RadioError) -> UInt16 {
        UInt16(truncatingIfNeeded: try unsigned(size: 2))
    }

    public func u32Value() throws(RadioError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(size: 4))
    }

    public func u64Value() throws(RadioError) -> UInt64 {
        try unsigned(size: 8)
    }

    private func unsigned(size: Int) throws(RadioError) -> UInt64 {
        guard case .payload(let octets) = value else {
            throw RadioError.attributeSize(type: type, expected: size, actual: 0)
        }
        guard octets.count == size else {
            throw RadioError.attributeSize(type: type, expected: size, actual: octets.count)
        }
        var result: UInt64 = 0
        for octet in octets.reversed() { result = result << 8 | UInt64(octet) }
        return result
    }

    private static func littleEndianOctets(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

extension NetlinkAttribute {
    /// A NUL-terminated string payload (`NLA_NUL_STRING`, as nl80211 sends names); a payload
    /// without the terminator is accepted whole.
    public func stringValue() throws(RadioError) -> String {
        guard case .payload(let octets) = value else {
            throw RadioError.attributeSize(type: type, expected: 1, actual: 0)
        }
        let text = octets.last == 0 ? octets.dropLast() : octets[...]
        guard !text.contains(0) else {
            throw RadioError.malformedMessage(reason: "attribute \(type) has a NUL inside its string", offset: 4)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

// MARK: - NetlinkAttributeReader

/// Walks netlink attributes in memory with libnl's own bounds checks (`nla_ok`, `nla_next`,
/// and the `cnl_nested_*` shims that replace the `nla_for_each_nested` macro,
/// platform-notes.md 2.3) and copies them into `NetlinkAttribute` values.
///
/// Every attribute must lie inside its region. After the last one, at most the alignment
/// padding of that attribute may be missing (the kernel's `nla_nest_end` does not always pad
/// the tail); anything left over is an error, not silently skipped as `nla_parse` does.
enum NetlinkAttributeReader {
    /// `NLA_F_NESTED` and `NLA_F_NET_BYTEORDER` (`linux/netlink.h`).
    static let nestedFlag: UInt16 = 1 << 15
    static let networkByteOrderFlag: UInt16 = 1 << 14

    /// The attributes of the region [`first`, `first` + `length`); `base` is the start of the
    /// message, for error offsets.
    static func attributes(
        first: UnsafeMutablePointer<nlattr>?,
        length: Int32,
        base: UnsafeRawPointer
    ) throws(RadioError) -> [NetlinkAttribute] {
        guard let first else { throw RadioError.malformedMessage(reason: "no attribute area", offset: 0) }
        let regionEnd = offset(of: first, from: base) + Int(length)
        var remaining = length
        var current: UnsafeMutablePointer<nlattr>? = nla_ok(first, remaining) != 0 ? first : nil
        var result: [NetlinkAttribute] = []
        while let attribute = current {
            result.append(try read(attribute, base: base))
            let next = nla_next(attribute, &remaining)
            current = nla_ok(next, remaining) != 0 ? next : nil
        }
        try requireConsumed(remaining: remaining, regionEnd: regionEnd)
        return result
    }

    /// The attributes nested in `container` (whose payload must be nothing but attributes).
    static func attributes(
        nestedIn container: UnsafeMutablePointer<nlattr>,
        base: UnsafeRawPointer
    ) throws(RadioError) -> [NetlinkAttribute] {
        let regionEnd = offset(of: container, from: base) + Int(container.pointee.nla_len)
        var remaining: Int32 = 0
        var current = cnl_nested_first(container, &remaining)
        var result: [NetlinkAttribute] = []
        while let attribute = current {
            result.append(try read(attribute, base: base))
            current = cnl_nested_next(attribute, &remaining)
        }
        try requireConsumed(remaining: remaining, regionEnd: regionEnd)
        return result
    }

    /// The attributes nested in a payload that was read as plain octets. Offsets in errors
    /// count from the start of `payload`.
    static func attributes(nestedIn payload: [UInt8], type: UInt16) throws(RadioError) -> [NetlinkAttribute] {
        let headerLength = MemoryLayout<nlattr>.size
        guard payload.count <= Int(UInt16.max) - headerLength else {
            throw RadioError.malformedMessage(reason: "payload too long for a netlink attribute", offset: 0)
        }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: headerLength + payload.count, alignment: 8)
        defer { storage.deallocate() }
        let container = storage.bindMemory(to: nlattr.self, capacity: 1)
        container.pointee = nlattr(nla_len: UInt16(headerLength + payload.count), nla_type: type | nestedFlag)
        payload.withUnsafeBytes { source in
            if let address = source.baseAddress {
                (storage + headerLength).copyMemory(from: address, byteCount: source.count)
            }
        }
        return try attributes(nestedIn: container, base: UnsafeRawPointer(storage + headerLength))
    }

    private static func read(
        _ attribute: UnsafeMutablePointer<nlattr>,
        base: UnsafeRawPointer
    ) throws(RadioError)
        -> NetlinkAttribute
    {
        let rawType = attribute.pointee.nla_type
        let type = rawType & ~(nestedFlag | networkByteOrderFlag)
        let networkByteOrder = rawType & networkByteOrderFlag != 0
        if rawType & nestedFlag != 0 {
            let children = try attributes(nestedIn: attribute, base: base)
            return NetlinkAttribute(type: type, value: .nested(children), networkByteOrder: networkByteOrder)
        }
        let count = Int(nla_len(attribute))
        let payload: [UInt8]
        if count > 0, let data = nla_data(attribute) {
            payload = Array(UnsafeRawBufferPointer(start: data, count: count))
        } else {
            payload = []
        }
        return NetlinkAttribute(type: type, value: .payload(payload), networkByteOrder: networkByteOrder)
    }

    private static func requireConsumed(remaining: Int32, regionEnd: Int) throws(RadioError) {
        guard remaining > 0 else { return }
        throw RadioError.malformedMessage(
            reason: "\(remaining) octets do not form a complete attribute",
            offset: regionEnd - Int(remaining)
        )
    }

    static func offset(of pointer: UnsafeMutablePointer<nlattr>, from base: UnsafeRawPointer) -> Int {
        UnsafeRawPointer(pointer) - base
    }
}

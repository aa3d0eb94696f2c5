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

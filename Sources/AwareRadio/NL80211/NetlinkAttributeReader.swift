import CNetlink

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

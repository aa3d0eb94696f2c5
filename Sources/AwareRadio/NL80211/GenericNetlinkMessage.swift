import CNetlink

/// A generic netlink message as values: the netlink header (`struct nlmsghdr`), the generic
/// netlink header (`struct genlmsghdr`) and the attribute tree.
public struct GenericNetlinkMessage: Hashable, Sendable {
    /// `nlmsg_type`: the generic netlink family ID.
    public var familyID: UInt16
    public var flags: UInt16
    public var sequence: UInt32
    public var portID: UInt32
    public var command: UInt8
    public var version: UInt8
    /// In message order, duplicates kept.
    public var attributes: [NetlinkAttribute]

    /// `struct nlmsghdr` + `struct genlmsghdr`.
    static let headerLength = 16 + 4

    public init(
        familyID: UInt16,
        command: UInt8,
        version: UInt8 = 0,
        flags: UInt16 = 0,
        sequence: UInt32 = 0,
        portID: UInt32 = 0,
        attributes: [NetlinkAttribute]
    ) {
        self.familyID = familyID
        self.command = command
        self.version = version
        self.flags = flags
        self.sequence = sequence
        self.portID = portID
        self.attributes = attributes
    }

    /// Reads one generic netlink message that fills `bytes` exactly.
    ///
    /// libnl checks the headers (`nlmsg_ok`, and `genlmsg_parse`, which validates the generic
    /// header and the attribute stream); the ordered tree is then read with libnl's attribute
    /// walkers, because `genlmsg_parse`'s table keeps only the last attribute of each type
    /// and drops their order.
    public init(parsing bytes: [UInt8]) throws(RadioError) {
        guard bytes.count >= Self.headerLength else {
            throw RadioError.malformedMessage(
                reason: "\(bytes.count) octets cannot hold the \(Self.headerLength) octets of headers",
                offset: 0
            )
        }
        guard let count = Int32(exactly: bytes.count) else {
            throw RadioError.malformedMessage(reason: "\(bytes.count) octets exceed any netlink message", offset: 0)
        }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { storage.deallocate() }
        bytes.withUnsafeBytes { source in
            if let address = source.baseAddress { storage.copyMemory(from: address, byteCount: source.count) }
        }
        let header = storage.bindMemory(to: nlmsghdr.self, capacity: 1)
        let declared = Int(header.pointee.nlmsg_len)
        guard nlmsg_ok(header, count) != 0, declared == bytes.count else {
            throw RadioError.malformedMessage(
                reason: "nlmsg_len says \(declared) octets but the message has \(bytes.count)",
                offset: 0
            )
        }
        let attributes = try Self.readAttributes(header, base: UnsafeRawPointer(storage))
        let maxType = Int32(attributes.map(\.type).max() ?? 0)
        let table = UnsafeMutablePointer<UnsafeMutablePointer<nlattr>?>.allocate(capacity: Int(maxType) + 1)
        defer { table.deallocate() }
        let code = genlmsg_parse(header, 0, table, maxType, nil)
        guard code == 0 else {
            throw RadioError.netlink(operation: "genlmsg_parse", code: code, message: NetlinkMessage.text(code))
        }
        guard let generic = genlmsg_hdr(header) else {
            throw RadioError.malformedMessage(reason: "no generic netlink header", offset: 16)
        }
        self.init(
            familyID: header.pointee.nlmsg_type,
            command: generic.pointee.cmd,
            version: generic.pointee.version,
            flags: header.pointee.nlmsg_flags,
            sequence: header.pointee.nlmsg_seq,
            portID: header.pointee.nlmsg_pid,
            attributes: attributes
        )
    }

    /// The message built by libnl (`NetlinkMessage`).
    public func serialized() throws(RadioError) -> [UInt8] {
        let message = try NetlinkMessage(
            familyID: familyID,
            command: command,
            version: version,
            flags: flags,
            sequence: sequence,
            portID: portID
        )
        for attribute in attributes { try message.put(attribute) }
        return message.bytes
    }

    /// The first top-level attribute of `type`.
    public func attribute(_ type: UInt16) -> NetlinkAttribute? {
        attributes.first { $0.type == type }
    }

    private static func readAttributes(
        _ header: UnsafeMutablePointer<nlmsghdr>,
        base: UnsafeRawPointer
    ) throws(RadioError) -> [NetlinkAttribute] {
        guard let generic = genlmsg_hdr(header) else {
            throw RadioError.malformedMessage(reason: "no generic netlink header", offset: 16)
        }
        let length = genlmsg_attrlen(generic, 0)
        guard length > 0 else { return [] }
        return try NetlinkAttributeReader.attributes(first: genlmsg_attrdata(generic, 0), length: length, base: base)
    }
}

extension GenericNetlinkMessage {
    /// The first top-level attribute of `type`, or a typed error naming the command that
    /// lacks it.
    func required(_ type: NL80211Constants.Attribute) throws(RadioError) -> NetlinkAttribute {
        guard let attribute = attribute(type.rawValue) else {
            throw RadioError.missingAttribute(command: command, attribute: type.rawValue)
        }
        return attribute
    }
}

// MARK: - NetlinkReceivedMessage

/// One message of a datagram read from a netlink socket. A datagram may hold several
/// messages back to back, each padded to 4 octets (`NLMSG_ALIGN`, `linux/netlink.h`); control
/// messages (`NLMSG_ERROR`, `NLMSG_DONE`) end requests and dumps.
public enum NetlinkReceivedMessage: Hashable, Sendable {
    case generic(GenericNetlinkMessage)
    /// `NLMSG_ERROR`: `code` is 0 for an acknowledgement, else a negative errno.
    case error(code: Int32, sequence: UInt32)
    /// `NLMSG_DONE`: the end of a dump.
    case done(sequence: UInt32)

    /// `NLMSG_NOOP`, `NLMSG_ERROR`, `NLMSG_DONE`, `NLMSG_OVERRUN` (`linux/netlink.h`).
    static let noopType: UInt16 = 1
    static let errorType: UInt16 = 2
    static let doneType: UInt16 = 3
    static let overrunType: UInt16 = 4
    static let headerLength = 16

    /// The messages of `datagram`, in order. Offsets in errors count from the start of the
    /// datagram.
    public static func messages(in datagram: [UInt8]) throws(RadioError) -> [NetlinkReceivedMessage] {
        var result: [NetlinkReceivedMessage] = []
        var offset = 0
        while offset < datagram.count {
            guard datagram.count - offset >= headerLength else {
                throw RadioError.malformedMessage(
                    reason: "\(datagram.count - offset) octets cannot hold a netlink header",
                    offset: offset
                )
            }
            let length = Int(littleEndian32(datagram, at: offset))
            guard length >= headerLength, length <= datagram.count - offset else {
                throw RadioError.malformedMessage(
                    reason: "nlmsg_len \(length) does not fit the \(datagram.count - offset) octets left",
                    offset: offset
                )
            }
            let bytes = Array(datagram[offset..<offset + length])
            let type = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
            let sequence = littleEndian32(bytes, at: 8)
            switch type {
            case errorType:
                // struct nlmsgerr: int error, then the request's header (and more).
                guard length >= headerLength + 4 else {
                    throw RadioError.malformedMessage(reason: "NLMSG_ERROR without an error code", offset: offset)
                }
                result.append(.error(code: Int32(bitPattern: littleEndian32(bytes, at: 16)), sequence: sequence))
            case doneType:
                result.append(.done(sequence: sequence))
            case noopType, overrunType:
                break
            default:
                do {
                    result.append(.generic(try GenericNetlinkMessage(parsing: bytes)))
                } catch .malformedMessage(let reason, let inner) {
                    throw RadioError.malformedMessage(reason: reason, offset: offset + inner)
                }
            }
            offset += (length + 3) & ~3
        }
        return result
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}

// MARK: - NetlinkMessage

/// A generic netlink message under construction, held by libnl (`struct nl_msg`).
///
/// Built with libnl's own calls (`nlmsg_alloc`, `genlmsg_put`, `nla_put_*`,
/// `nla_nest_start` / `nla_nest_end_keep_empty`), so the octets are exactly what libnl would
/// send. The `NLA_PUT_*` macros are gotos Swift cannot import (platform-notes.md 2.3); each
/// call's result is checked instead. libnl 3.7 allocates one page per message: an attribute
/// that does not fit throws instead of truncating.
///
/// Not `Sendable`: libnl messages are not thread-safe. Take `bytes` to hand a message on.
public final class NetlinkMessage {
    private let message: OpaquePointer

    /// An empty message with the netlink header (type = `familyID`, `flags`, `sequence`,
    /// `portID`) and the generic netlink header (`command`, `version`). Sequence and port 0
    /// are libnl's `NL_AUTO_SEQ` / `NL_AUTO_PORT`: the socket fills them in when it sends.
    public init(
        familyID: UInt16,
        command: UInt8,
        version: UInt8 = 0,
        flags: UInt16 = 0,
        sequence: UInt32 = 0,
        portID: UInt32 = 0
    ) throws(RadioError) {
        guard let message = nlmsg_alloc() else {
            throw RadioError.netlink(operation: "nlmsg_alloc", code: -NLE_NOMEM, message: Self.text(-NLE_NOMEM))
        }
        self.message = message
        guard genlmsg_put(message, portID, sequence, Int32(familyID), 0, Int32(flags), command, version) != nil else {
            throw RadioError.netlink(operation: "genlmsg_put", code: -NLE_NOMEM, message: Self.text(-NLE_NOMEM))
        }
    }

    deinit {
        nlmsg_free(message)
    }

    public func putU8(_ type: UInt16, _ value: UInt8) throws(RadioError) {
        try check(nla_put_u8(message, Int32(type), value), "nla_put_u8")
    }

    public func putU16(_ type: UInt16, _ value: UInt16) throws(RadioError) {
        try check(nla_put_u16(message, Int32(type), value), "nla_put_u16")
    }

    public func putU32(_ type: UInt16, _ value: UInt32) throws(RadioError) {
        try check(nla_put_u32(message, Int32(type), value), "nla_put_u32")
    }

    public func putU64(_ type: UInt16, _ value: UInt64) throws(RadioError) {
        try check(nla_put_u64(message, Int32(type), value), "nla_put_u64")
    }

    public func putFlag(_ type: UInt16) throws(RadioError) {
        try check(nla_put_flag(message, Int32(type)), "nla_put_flag")
    }

    public func putBytes(_ type: UInt16, _ payload: [UInt8]) throws(RadioError) {
        guard payload.count <= Int(UInt16.max) - MemoryLayout<nlattr>.size else {
            throw RadioError.netlink(operation: "nla_put", code: -NLE_RANGE, message: Self.text(-NLE_RANGE))
        }
        let code = payload.withUnsafeBytes { nla_put(message, Int32(type), Int32($0.count), $0.baseAddress) }
        try check(code, "nla_put")
    }

    /// A nested attribute whose children `body` puts. If `body` throws, the half-built nest is
    /// removed (`nla_nest_cancel`). An empty nest is kept, as the caller asked for it
    /// (`nla_nest_end` would drop it).
    public func putNested(_ type: UInt16, _ body: (NetlinkMessage) throws(RadioError) -> Void) throws(RadioError) {
        guard let start = nla_nest_start(message, Int32(type)) else {
            throw RadioError.netlink(operation: "nla_nest_start", code: -NLE_NOMEM, message: Self.text(-NLE_NOMEM))
        }
        do {
            try body(self)
        } catch {
            nla_nest_cancel(message, start)
            throw error
        }
        try check(nla_nest_end_keep_empty(message, start), "nla_nest_end")
    }

    /// Puts `attribute` and, for a nested one, its children.
    public func put(_ attribute: NetlinkAttribute) throws(RadioError) {
        let rawType = attribute.type | (attribute.networkByteOrder ? NetlinkAttributeReader.networkByteOrderFlag : 0)
        switch attribute.value {
        case .payload(let payload):
            try putBytes(rawType, payload)
        case .nested(let children):
            try putNested(rawType) { (nest: NetlinkMessage) throws(RadioError) in
                for child in children { try nest.put(child) }
            }
        }
    }

    /// The message as it stands: `nlmsg_len` octets from the netlink header on.
    public var bytes: [UInt8] {
        guard let header = nlmsg_hdr(message) else { return [] }
        let length = Int(header.pointee.nlmsg_len)
        return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(header), count: length))
    }

    private func check(_ code: Int32, _ operation: String) throws(RadioError) {
        guard code < 0 else { return }
        throw RadioError.netlink(operation: operation, code: code, message: Self.text(code))
    }

    static func text(_ code: Int32) -> String {
        guard let text = nl_geterror(code) else { return "unknown error" }
        return String(cString: text)
    }
}

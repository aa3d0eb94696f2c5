import CNetlink

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

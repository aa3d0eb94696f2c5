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

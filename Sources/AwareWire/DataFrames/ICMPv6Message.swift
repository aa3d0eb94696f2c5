import AwareCore

/// An ICMPv6 message (RFC 4443 2.1): Type, Code, Checksum, then a body the type defines.
///
/// The bench's IPv6 stack speaks echo (RFC 4443 4.1, 4.2) and the two neighbour discovery
/// messages that resolve a link-local address (RFC 4861 4.3, 4.4, options 4.6); every other
/// type is kept as sent in ``other(type:code:body:)``. The Code of those four types must be
/// 0 (RFC 4443 4.1, 4.2; RFC 4861 7.1.1, 7.1.2), so a message that parses writes back
/// byte-exact.
///
/// The checksum covers the IPv6 pseudo-header (RFC 4443 2.3, RFC 8200 8.1), so a message is
/// read and written with the addresses of the packet that carries it. The rules of RFC
/// 4861 7.1 that need that packet (Hop Limit 255, no source link-layer address option from
/// the unspecified address) are the receiving stack's to apply.
public enum ICMPv6Message: Hashable, Sendable {
    /// Type 128.
    case echoRequest(ICMPv6Echo)
    /// Type 129.
    case echoReply(ICMPv6Echo)
    /// Type 135.
    case neighborSolicitation(NeighborSolicitation)
    /// Type 136.
    case neighborAdvertisement(NeighborAdvertisement)
    /// Any other type; `body` is everything after the checksum.
    case other(type: UInt8, code: UInt8, body: [UInt8])

    public static let structureName = "ICMPv6 message"
    /// Type, Code, Checksum.
    public static let headerLength = 4

    /// The Type values of the messages this type names (IANA ICMPv6 "type" numbers).
    public enum MessageType {
        public static let echoRequest: UInt8 = 128
        public static let echoReply: UInt8 = 129
        public static let neighborSolicitation: UInt8 = 135
        public static let neighborAdvertisement: UInt8 = 136
    }

    public var type: UInt8 {
        switch self {
        case .echoRequest: MessageType.echoRequest
        case .echoReply: MessageType.echoReply
        case .neighborSolicitation: MessageType.neighborSolicitation
        case .neighborAdvertisement: MessageType.neighborAdvertisement
        case .other(let type, _, _): type
        }
    }

    public var code: UInt8 {
        if case .other(_, let code, _) = self { return code }
        return 0
    }

    /// Parses a whole message and checks its checksum against the pseudo-header of
    /// `source` -> `destination`.
    public init(bytes: [UInt8], source: IPv6Address, destination: IPv6Address) throws(WireError) {
        var reader = WireReader(bytes, structure: Self.structureName)
        let type = try reader.readUInt8("Type")
        let codeOffset = reader.offset
        let code = try reader.readUInt8("Code")
        let checksumOffset = reader.offset
        _ = try reader.readUInt16BE("Checksum")
        try IPv6Packet.checkUpperLayerChecksum(
            of: bytes,
            at: checksumOffset,
            source: source,
            destination: destination,
            nextHeader: IPNextHeader.icmpv6,
            reader: reader
        )
        let name: String? =
            switch type {
            case MessageType.echoRequest: "Echo Request"
            case MessageType.echoReply: "Echo Reply"
            case MessageType.neighborSolicitation: "Neighbor Solicitation"
            case MessageType.neighborAdvertisement: "Neighbor Advertisement"
            default: nil
            }
        guard let name else {
            self = .other(type: type, code: code, body: reader.readRemaining())
            return
        }
        guard code == 0 else {
            throw reader.error(.invalidValue("Code \(code) is not 0 for \(name)"), field: "Code", at: codeOffset)
        }
        reader.structure = name
        switch type {
        case MessageType.echoRequest: self = .echoRequest(try ICMPv6Echo(from: &reader))
        case MessageType.echoReply: self = .echoReply(try ICMPv6Echo(from: &reader))
        case MessageType.neighborSolicitation: self = .neighborSolicitation(try NeighborSolicitation(from: &reader))
        default: self = .neighborAdvertisement(try NeighborAdvertisement(from: &reader))
        }
    }

    /// The message with its checksum computed for `source` -> `destination`.
    public func bytes(source: IPv6Address, destination: IPv6Address) -> [UInt8] {
        var writer = WireWriter()
        writer.write(type)
        writer.write(code)
        writer.writeUInt16BE(0)
        switch self {
        case .echoRequest(let echo), .echoReply(let echo): echo.write(to: &writer)
        case .neighborSolicitation(let solicitation): solicitation.write(to: &writer)
        case .neighborAdvertisement(let advertisement): advertisement.write(to: &writer)
        case .other(_, _, let body): writer.write(body)
        }
        var bytes = writer.bytes
        let checksum = IPv6Packet.upperLayerChecksum(
            source: source,
            destination: destination,
            nextHeader: IPNextHeader.icmpv6,
            body: bytes
        )
        bytes[2] = UInt8(checksum >> 8)
        bytes[3] = UInt8(checksum & 0xFF)
        return bytes
    }

    /// The message's fields for people and JSON, the checksum computed for `source` ->
    /// `destination` (it is not a stored field: it follows from the rest).
    public func decodedFields(source: IPv6Address, destination: IPv6Address) -> [DecodedField] {
        let written = bytes(source: source, destination: destination)
        let checksum = UInt64(written[2]) << 8 | UInt64(written[3])
        let typeValue: DecodedValue =
            switch self {
            case .echoRequest: .named(UInt64(type), "Echo Request")
            case .echoReply: .named(UInt64(type), "Echo Reply")
            case .neighborSolicitation: .named(UInt64(type), "Neighbor Solicitation")
            case .neighborAdvertisement: .named(UInt64(type), "Neighbor Advertisement")
            case .other: .unsigned(UInt64(type))
            }
        var fields = [
            DecodedField("type", "Type", typeValue),
            DecodedField("code", "Code", .unsigned(UInt64(code))),
            DecodedField("checksum", "Checksum", .bits(checksum, digits: 4)),
        ]
        switch self {
        case .echoRequest(let echo), .echoReply(let echo): fields += echo.decodedFields
        case .neighborSolicitation(let solicitation): fields += solicitation.decodedFields
        case .neighborAdvertisement(let advertisement): fields += advertisement.decodedFields
        case .other(_, _, let body): fields.append(DecodedField("body", "Message Body", .bytes(body)))
        }
        return fields
    }
}

/// The body of an Echo Request or Echo Reply (RFC 4443 4.1, 4.2): Identifier, Sequence
/// Number, Data. A reply carries the request's three fields back unchanged.
public struct ICMPv6Echo: Hashable, Sendable, WireCodable, WireDescribable {
    public var identifier: UInt16
    public var sequence: UInt16
    public var data: [UInt8]

    public init(identifier: UInt16, sequence: UInt16, data: [UInt8]) {
        self.identifier = identifier
        self.sequence = sequence
        self.data = data
    }

    public init(from reader: inout WireReader) throws(WireError) {
        identifier = try reader.readUInt16BE("Identifier")
        sequence = try reader.readUInt16BE("Sequence Number")
        data = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16BE(identifier)
        writer.writeUInt16BE(sequence)
        writer.write(data)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("identifier", "Identifier", .bits(UInt64(identifier), digits: 4)),
            DecodedField("sequence", "Sequence Number", .unsigned(UInt64(sequence))),
            DecodedField("data", "Data", .bytes(data)),
        ]
    }
}

/// The body of a Neighbor Solicitation (RFC 4861 4.3): Reserved (4 octets), Target Address,
/// options. Sent to the target's solicited-node multicast address to learn its link-layer
/// address, which the answer carries in a Target Link-Layer Address option.
public struct NeighborSolicitation: Hashable, Sendable, WireCodable, WireDescribable {
    public var target: IPv6Address
    public var options: [NDOption]
    /// The Reserved field as received: zero when sent, ignored by a receiver (RFC 4861 4.3),
    /// kept so that a parsed message writes back byte-exact.
    public var reserved: UInt32 = 0

    public init(target: IPv6Address, options: [NDOption] = []) {
        self.target = target
        self.options = options
    }

    /// The link-layer address of the sender: the first Source Link-Layer Address option.
    public var sourceLinkLayerAddress: MACAddress? {
        for option in options {
            if case .sourceLinkLayerAddress(let address) = option { return address }
        }
        return nil
    }

    public init(from reader: inout WireReader) throws(WireError) {
        reserved = try reader.readUInt32BE("Reserved")
        target = try IPv6Address(from: &reader)
        options = try NDOption.readAll(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt32BE(reserved)
        target.write(to: &writer)
        for option in options { option.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("reserved", "Reserved", .bits(UInt64(reserved), digits: 8)),
            DecodedField("target", "Target Address", .text(target.description)),
            DecodedField("options", "Options", .list(options.map { .fields($0.decodedFields) })),
        ]
    }
}

/// The body of a Neighbor Advertisement (RFC 4861 4.4): the Router (b31), Solicited (b30)
/// and Override (b29) flags and 29 reserved bits in one 32-bit word, Target Address, options.
public struct NeighborAdvertisement: Hashable, Sendable, WireCodable, WireDescribable {
    /// R: the sender is a router.
    public var router: Bool
    /// S: sent in answer to a Neighbor Solicitation.
    public var solicited: Bool
    /// O: the advertisement should replace a cached link-layer address.
    public var override: Bool
    public var target: IPv6Address
    public var options: [NDOption]
    /// b0-b28 of the flags word as received: zero when sent, ignored by a receiver (RFC 4861
    /// 4.4), kept so that a parsed message writes back byte-exact.
    public var reservedBits: UInt32 = 0

    public init(
        router: Bool = false,
        solicited: Bool,
        override: Bool,
        target: IPv6Address,
        options: [NDOption] = []
    ) {
        self.router = router
        self.solicited = solicited
        self.override = override
        self.target = target
        self.options = options
    }

    /// The link-layer address of the target: the first Target Link-Layer Address option.
    public var targetLinkLayerAddress: MACAddress? {
        for option in options {
            if case .targetLinkLayerAddress(let address) = option { return address }
        }
        return nil
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let word = try reader.readUInt32BE("Flags / Reserved")
        router = word & 0x8000_0000 != 0
        solicited = word & 0x4000_0000 != 0
        override = word & 0x2000_0000 != 0
        reservedBits = word & 0x1FFF_FFFF
        target = try IPv6Address(from: &reader)
        options = try NDOption.readAll(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt32BE(
            (router ? 0x8000_0000 : 0) | (solicited ? 0x4000_0000 : 0) | (override ? 0x2000_0000 : 0)
                | reservedBits & 0x1FFF_FFFF
        )
        target.write(to: &writer)
        for option in options { option.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("router", "Router (R)", .flag(router)),
            DecodedField("solicited", "Solicited (S)", .flag(solicited)),
            DecodedField("override", "Override (O)", .flag(override)),
            DecodedField("reserved", "Reserved", .bits(UInt64(reservedBits), digits: 8)),
            DecodedField("target", "Target Address", .text(target.description)),
            DecodedField("options", "Options", .list(options.map { .fields($0.decodedFields) })),
        ]
    }
}

/// A neighbour discovery option (RFC 4861 4.6): Type, Length in units of 8 octets (counting
/// Type and Length; 0 is invalid), then `8 * Length - 2` octets of body.
///
/// A link-layer address option on Ethernet and IEEE 802.11 has Length 1 and a 6-octet address
/// (RFC 2464 8, RFC 4861 4.6.1). One with another Length belongs to another link layer and is
/// kept in ``other(type:body:)``, as is every other type.
public enum NDOption: Hashable, Sendable, WireCodable, WireDescribable {
    /// Type 1.
    case sourceLinkLayerAddress(MACAddress)
    /// Type 2.
    case targetLinkLayerAddress(MACAddress)
    /// `body` is the octets after Type and Length. When written, a body whose length is not
    /// 6 more than a multiple of 8 is padded with zero octets to the next unit.
    case other(type: UInt8, body: [UInt8])

    public static let structureName = "ND option"
    public static let sourceLinkLayerAddressType: UInt8 = 1
    public static let targetLinkLayerAddressType: UInt8 = 2

    public var type: UInt8 {
        switch self {
        case .sourceLinkLayerAddress: Self.sourceLinkLayerAddressType
        case .targetLinkLayerAddress: Self.targetLinkLayerAddressType
        case .other(let type, _): type
        }
    }

    /// Options up to the end of `reader`: the rest of an ND message is options (RFC 4861 4.3).
    static func readAll(from reader: inout WireReader) throws(WireError) -> [NDOption] {
        let message = reader.structure
        reader.structure = NDOption.structureName
        defer { reader.structure = message }
        var options: [NDOption] = []
        while !reader.isAtEnd { options.append(try NDOption(from: &reader)) }
        return options
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let type = try reader.readUInt8("Type")
        let lengthOffset = reader.offset
        let length = try reader.readUInt8("Length")
        guard length != 0 else {
            throw reader.error(
                .invalidValue("Length 0 is invalid (RFC 4861 4.6)"),
                field: "Length",
                at: lengthOffset
            )
        }
        let bodyLength = 8 * Int(length) - 2
        guard bodyLength <= reader.remaining else {
            throw reader.error(
                .lengthMismatch(declared: 8 * Int(length), actual: 2 + reader.remaining),
                field: "Length",
                at: lengthOffset
            )
        }
        let body = try reader.readBytes(bodyLength, "Option Body")
        switch type {
        case Self.sourceLinkLayerAddressType where length == 1: self = .sourceLinkLayerAddress(MACAddress(body)!)
        case Self.targetLinkLayerAddressType where length == 1: self = .targetLinkLayerAddress(MACAddress(body)!)
        default: self = .other(type: type, body: body)
        }
    }

    public func write(to writer: inout WireWriter) {
        var body: [UInt8]
        switch self {
        case .sourceLinkLayerAddress(let address), .targetLinkLayerAddress(let address): body = address.octets
        case .other(_, let octets): body = octets
        }
        let units = (body.count + 2 + 7) / 8
        precondition(units <= 0xFF, "ND option body of \(body.count) octets overflows Length")
        body += [UInt8](repeating: 0, count: 8 * units - 2 - body.count)
        writer.write(type)
        writer.write(UInt8(units))
        writer.write(body)
    }

    public var decodedFields: [DecodedField] {
        switch self {
        case .sourceLinkLayerAddress(let address):
            [
                DecodedField("type", "Type", .named(UInt64(type), "Source Link-Layer Address")),
                DecodedField("linkLayerAddress", "Link-Layer Address", .address(address)),
            ]
        case .targetLinkLayerAddress(let address):
            [
                DecodedField("type", "Type", .named(UInt64(type), "Target Link-Layer Address")),
                DecodedField("linkLayerAddress", "Link-Layer Address", .address(address)),
            ]
        case .other(let type, let body):
            [
                DecodedField("type", "Type", .unsigned(UInt64(type))),
                DecodedField("body", "Body", .bytes(body)),
            ]
        }
    }
}

import AwareCore
import Testing

@testable import AwareWire

/// Neighbour discovery and echo between the two golden NDIs' link-local addresses:
/// A = fe80::a0:ff:fe00:1 (02:a0:00:00:00:01), B = fe80::b0:ff:fe00:2 (02:b0:00:00:00:02).
///
/// The octets were computed once, independently of AwareWire, with a short Python script
/// (not committed) that packs each field with `struct` and takes the checksum over the RFC
/// 8200 8.1 pseudo-header the same way as the script quoted at DataFrameGolden.ipv6UDP:
///
///     def checksum(src, dst, next_header, message):   # checksum field zero in message
///         data = src + dst + struct.pack(">I", len(message)) + b"\0\0\0" + bytes([next_header])
///         data += message + b"\0" * (len(message) % 2)
///         s = sum(struct.unpack(">%dH" % (len(data) // 2), data))
///         while s > 0xffff: s = (s & 0xffff) + (s >> 16)
///         return ~s & 0xffff
enum ICMPv6Golden {
    static let a = IPv6Address.linkLocal(of: DataFrameGolden.ownNDI)
    static let b = IPv6Address.linkLocal(of: DataFrameGolden.peerNDI)
    /// ff02::1:ff00:1, the solicited-node multicast address of A (low 24 bits 00 00 01).
    static let solicitedNodeOfA = IPv6Address(FrameTestSupport.hex("ff02000000000000 00000001ff000001"))!

    /// B -> ff02::1:ff00:1: Type 135, Code 0, checksum 7a97, Reserved 0, Target A, option
    /// Source Link-Layer Address (type 1, length 1) 02:b0:00:00:00:02.
    static let neighborSolicitation = FrameTestSupport.hex(
        "87 00 7a97 00000000 fe80000000000000 00a000fffe000001 01 01 02b000000002"
    )
    /// A -> B: Type 136, Code 0, checksum 188c, flags 60000000 (S and O), Target A, option
    /// Target Link-Layer Address (type 2, length 1) 02:a0:00:00:00:01.
    static let neighborAdvertisement = FrameTestSupport.hex(
        "88 00 188c 60000000 fe80000000000000 00a000fffe000001 02 01 02a000000001"
    )
    /// B -> A: Type 128, Identifier 0x1234, Sequence 1, data "WA".
    static let echoRequest = FrameTestSupport.hex("80 00 19f0 1234 0001 5741")
    /// A -> B: Type 129 and the request's fields (the type rises by 1 in the high octet of the
    /// first word, so the checksum falls by 0x100 against the request's, the addresses
    /// swapped summing the same).
    static let echoReply = FrameTestSupport.hex("81 00 18f0 1234 0001 5741")
    /// The solicitation in its IPv6 packet: Version 6, Payload Length 32, Next Header 58,
    /// Hop Limit 255 (RFC 4861 7.1.1), B -> ff02::1:ff00:1.
    static let neighborSolicitationPacket =
        FrameTestSupport.hex(
            "60000000 0020 3a ff fe80000000000000 00b000fffe000002 ff02000000000000 00000001ff000001"
        ) + neighborSolicitation

    static let echo = ICMPv6Echo(identifier: 0x1234, sequence: 1, data: Array("WA".utf8))
    static let solicitation = NeighborSolicitation(
        target: a,
        options: [.sourceLinkLayerAddress(DataFrameGolden.peerNDI)]
    )
    static let advertisement = NeighborAdvertisement(
        solicited: true,
        override: true,
        target: a,
        options: [.targetLinkLayerAddress(DataFrameGolden.ownNDI)]
    )

    /// `bytes` with octet `index` replaced and the checksum set to `checksum` (the value the
    /// script gives for the changed message).
    static func changed(_ bytes: [UInt8], at index: Int, to value: UInt8, checksum: UInt16) -> [UInt8] {
        var copy = bytes
        copy[index] = value
        copy[2] = UInt8(checksum >> 8)
        copy[3] = UInt8(checksum & 0xFF)
        return copy
    }
}

@Suite struct DataFrameICMPv6Tests {
    typealias G = ICMPv6Golden

    @Test func wellKnownAddresses() throws {
        #expect(IPv6Address.unspecified.octets == [UInt8](repeating: 0, count: 16))
        #expect(IPv6Address.unspecified.isUnspecified && !IPv6Address.unspecified.isMulticast)
        #expect(IPv6Address.allNodes.octets == FrameTestSupport.hex("ff020000000000000000000000000001"))
        #expect(IPv6Address.allNodes.description == "ff02::1" && IPv6Address.allNodes.isMulticast)
        #expect(!G.a.isMulticast && !G.a.isUnspecified && !IPv6Address.allNodes.isUnspecified)
        // RFC 4291 2.7.1: ff02:0:0:0:0:1:ff + the low 24 bits.
        #expect(G.a.solicitedNodeMulticast == G.solicitedNodeOfA)
        #expect(G.a.solicitedNodeMulticast.description == "ff02::1:ff00:1")
        let other = try #require(IPv6Address(FrameTestSupport.hex("fe80000000000000 00b000fffe123456")))
        #expect(other.solicitedNodeMulticast.description == "ff02::1:ff12:3456")
        #expect(other.solicitedNodeMulticast.isMulticast)
    }

    @Test func neighborSolicitationBytes() throws {
        let message = ICMPv6Message.neighborSolicitation(G.solicitation)
        #expect(message.type == 135)
        #expect(message.bytes(source: G.b, destination: G.solicitedNodeOfA) == G.neighborSolicitation)
        let parsed = try ICMPv6Message(bytes: G.neighborSolicitation, source: G.b, destination: G.solicitedNodeOfA)
        #expect(parsed == message)
        guard case .neighborSolicitation(let solicitation) = parsed else {
            Issue.record("not a Neighbor Solicitation: \(parsed)")
            return
        }
        #expect(solicitation.target.description == "fe80::a0:ff:fe00:1")
        #expect(solicitation.sourceLinkLayerAddress == MACAddress(string: "02:b0:00:00:00:02"))
    }

    @Test func neighborAdvertisementBytes() throws {
        let message = ICMPv6Message.neighborAdvertisement(G.advertisement)
        #expect(message.type == 136)
        #expect(message.bytes(source: G.a, destination: G.b) == G.neighborAdvertisement)
        let parsed = try ICMPv6Message(bytes: G.neighborAdvertisement, source: G.a, destination: G.b)
        #expect(parsed == message)
        guard case .neighborAdvertisement(let advertisement) = parsed else {
            Issue.record("not a Neighbor Advertisement: \(parsed)")
            return
        }
        #expect(!advertisement.router && advertisement.solicited && advertisement.override)
        #expect(advertisement.targetLinkLayerAddress == MACAddress(string: "02:a0:00:00:00:01"))
        #expect(advertisement.target == G.a)
    }

    @Test func echoBytes() throws {
        let request = ICMPv6Message.echoRequest(G.echo)
        let reply = ICMPv6Message.echoReply(G.echo)
        #expect(request.type == 128 && reply.type == 129)
        #expect(request.bytes(source: G.b, destination: G.a) == G.echoRequest)
        #expect(reply.bytes(source: G.a, destination: G.b) == G.echoReply)
        #expect(try ICMPv6Message(bytes: G.echoRequest, source: G.b, destination: G.a) == request)
        #expect(try ICMPv6Message(bytes: G.echoReply, source: G.a, destination: G.b) == reply)
        // The checksum covers the pseudo-header: the same octets from another source fail.
        #expect(throws: WireError.self) {
            try ICMPv6Message(bytes: G.echoRequest, source: G.a, destination: G.a)
        }
    }

    @Test func packetCarryingTheSolicitation() throws {
        let packet = IPv6Packet(
            nextHeader: IPNextHeader.icmpv6,
            hopLimit: 255,
            source: G.b,
            destination: G.solicitedNodeOfA,
            payload: G.neighborSolicitation
        )
        #expect(packet.wireBytes == G.neighborSolicitationPacket)
        let parsed = try IPv6Packet(bytes: G.neighborSolicitationPacket)
        #expect(parsed == packet)
        #expect(parsed.nextHeader == 58 && parsed.hopLimit == 255 && parsed.payload.count == 32)
        let icmp = try #require(parsed.decodedFields.first { $0.key == "icmpv6" })
        guard case .fields(let fields) = icmp.value else {
            Issue.record("ICMPv6 not nested: \(icmp)")
            return
        }
        #expect(fields.first { $0.key == "checksum" }?.value == .bits(0x7A97, digits: 4))
    }

    @Test func packetCarryingTheGoldenUDPDatagram() throws {
        // The UDP golden packet read as a generic packet: its Next Header and UDP octets.
        let packet = try IPv6Packet(bytes: DataFrameGolden.ipv6UDP)
        #expect(packet.nextHeader == IPNextHeader.udp && packet.trafficClass == 0xB8 && packet.flowLabel == 0)
        #expect(packet.payload == Array(DataFrameGolden.ipv6UDP[40...]))
        #expect(packet.wireBytes == DataFrameGolden.ipv6UDP)
        // The shared checksum over the UDP octets with their checksum field zeroed.
        var udp = packet.payload
        udp[6] = 0
        udp[7] = 0
        let checksum = IPv6Packet.upperLayerChecksum(
            source: packet.source,
            destination: packet.destination,
            nextHeader: IPNextHeader.udp,
            body: udp
        )
        #expect(checksum == 0x90CD)
    }

    @Test func packetErrors() {
        var version4 = G.neighborSolicitationPacket
        version4[0] = 0x40
        #expect(
            throws: WireError(
                .invalidValue("Version 4 is not 6"),
                structure: "IPv6 packet",
                field: "Version",
                offset: 0
            )
        ) {
            try IPv6Packet(bytes: version4)
        }
        var longer = G.neighborSolicitationPacket
        longer[5] = 0x21
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 33, actual: 32),
                structure: "IPv6 packet",
                field: "Payload Length",
                offset: 4
            )
        ) {
            try IPv6Packet(bytes: longer)
        }
        #expect(
            throws: WireError(
                .truncated(need: 16, have: 10),
                structure: "IPv6 packet",
                field: "IPv6 Address",
                offset: 24
            )
        ) {
            try IPv6Packet(bytes: G.neighborSolicitationPacket.prefix(34))
        }
    }

    @Test func aFlippedDataBitFailsTheChecksum() {
        // 'A' (41) -> 40 lowers the last word by 1, so the checksum the content calls for rises by 1.
        var bytes = G.echoRequest
        bytes[9] = 0x40
        #expect(
            throws: WireError(
                .invalidValue("checksum 0x19f0 does not match 0x19f1"),
                structure: "ICMPv6 message",
                field: "Checksum",
                offset: 2
            )
        ) {
            try ICMPv6Message(bytes: bytes, source: G.b, destination: G.a)
        }
    }

    @Test func aNonZeroCodeIsRefused() {
        // Checksums of the changed messages from the script: Code 1 raises the first word by 1.
        let solicitation = G.changed(G.neighborSolicitation, at: 1, to: 1, checksum: 0x7A96)
        #expect(
            throws: WireError(
                .invalidValue("Code 1 is not 0 for Neighbor Solicitation"),
                structure: "ICMPv6 message",
                field: "Code",
                offset: 1
            )
        ) {
            try ICMPv6Message(bytes: solicitation, source: G.b, destination: G.solicitedNodeOfA)
        }
        let reply = G.changed(G.echoReply, at: 1, to: 1, checksum: 0x18EF)
        #expect(
            throws: WireError(
                .invalidValue("Code 1 is not 0 for Echo Reply"),
                structure: "ICMPv6 message",
                field: "Code",
                offset: 1
            )
        ) {
            try ICMPv6Message(bytes: reply, source: G.a, destination: G.b)
        }
    }

    @Test func optionLengthsOfZeroOrPastTheEndAreRefused() {
        // The option's Length is octet 25 of the solicitation.
        let zero = G.changed(G.neighborSolicitation, at: 25, to: 0, checksum: 0x7A98)
        #expect(
            throws: WireError(
                .invalidValue("Length 0 is invalid (RFC 4861 4.6)"),
                structure: "ND option",
                field: "Length",
                offset: 25
            )
        ) {
            try ICMPv6Message(bytes: zero, source: G.b, destination: G.solicitedNodeOfA)
        }
        // Length 2 declares 16 octets where 8 remain from the option's Type.
        let long = G.changed(G.neighborSolicitation, at: 25, to: 2, checksum: 0x7A96)
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 16, actual: 8),
                structure: "ND option",
                field: "Length",
                offset: 25
            )
        ) {
            try ICMPv6Message(bytes: long, source: G.b, destination: G.solicitedNodeOfA)
        }
    }

    @Test func aSolicitationShorterThanItsTargetIsRefused() {
        // The first 20 octets with the checksum the script computed for them.
        let short = FrameTestSupport.hex("87 00 7c58 00000000 fe80000000000000 00a000ff")
        #expect(
            throws: WireError(
                .truncated(need: 16, have: 12),
                structure: "Neighbor Solicitation",
                field: "IPv6 Address",
                offset: 8
            )
        ) {
            try ICMPv6Message(bytes: short, source: G.b, destination: G.solicitedNodeOfA)
        }
    }

    @Test func otherTypesAndOptionsAreKeptAsSent() throws {
        // Type 1 (Destination Unreachable) with Code 4: any code, body kept.
        let unreachable = ICMPv6Message.other(type: 1, code: 4, body: [0, 0, 0, 0, 0x60])
        let bytes = unreachable.bytes(source: G.a, destination: G.b)
        #expect(Array(bytes[0..<2]) == [1, 4] && Array(bytes[4...]) == [0, 0, 0, 0, 0x60])
        #expect(try ICMPv6Message(bytes: bytes, source: G.a, destination: G.b) == unreachable)
        // An unknown option's body is padded to whole units of 8 octets; a link-layer address
        // option of Length 2 is some other link layer's and stays `other`.
        #expect(NDOption.other(type: 14, body: [1, 2, 3]).wireBytes == [14, 1, 1, 2, 3, 0, 0, 0])
        let wide = FrameTestSupport.hex("0102 0102030405060708090a0b0c0d0e")
        #expect(
            try NDOption(wireBytes: wide, structure: "ND option")
                == .other(type: 1, body: Array(wide[2...]))
        )
        // Reserved bits are kept so a parsed advertisement writes back exactly.
        var advertisement = try NeighborAdvertisement(
            wireBytes: FrameTestSupport.hex("e0000001 fe80000000000000 00a000fffe000001"),
            structure: "Neighbor Advertisement"
        )
        #expect(advertisement.router && advertisement.solicited && advertisement.override)
        #expect(advertisement.reservedBits == 1 && advertisement.options.isEmpty)
        advertisement.reservedBits = 0
        #expect(Array(advertisement.wireBytes[0..<4]) == [0xE0, 0, 0, 0])
    }
}

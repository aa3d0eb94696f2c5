import AwareCore

/// An IPv6 packet that carries one UDP datagram and nothing else: the 40-octet IPv6 header
/// (RFC 8200 3) with Next Header 17, no extension headers, then the 8-octet UDP header (RFC
/// 768) and the payload. This is what a NAN data path carries for an app's UDP traffic
/// between the two NDIs' link-local addresses.
///
/// Version (6), Payload Length, Next Header, UDP Length and the checksum are derived from
/// the other fields when written and checked when read, so a packet that parses writes back
/// byte-exact. The UDP checksum is mandatory over IPv6 (RFC 8200 8.1) and covers the
/// pseudo-header (source, destination, upper-layer length as 32 bits, three zero octets,
/// Next Header 17), the UDP header and the payload; a computed 0 is sent as 0xFFFF.
public struct IPv6UDPPacket: Hashable, Sendable, WireCodable, WireDescribable {
    public static let structureName = "IPv6 UDP packet"
    public static let ipv6HeaderLength = 40
    public static let udpHeaderLength = 8
    /// Next Header value of UDP (IANA protocol numbers).
    public static let udpNextHeader: UInt8 = 17
    /// Hop Limit of a link-local packet: 255, so a receiver can tell it never crossed a
    /// router (the convention of RFC 4861 7.1.1 for link-scoped traffic).
    public static let linkLocalHopLimit: UInt8 = 255

    /// Traffic Class: DSCP (b2-b7) and ECN (b0-b1).
    public var trafficClass: UInt8
    /// The 20-bit Flow Label (higher bits are dropped when written).
    public var flowLabel: UInt32
    public var hopLimit: UInt8
    public var source: IPv6Address
    public var destination: IPv6Address
    public var sourcePort: UInt16
    public var destinationPort: UInt16
    public var payload: [UInt8]

    public init(
        trafficClass: UInt8 = 0,
        flowLabel: UInt32 = 0,
        hopLimit: UInt8 = IPv6UDPPacket.linkLocalHopLimit,
        source: IPv6Address,
        destination: IPv6Address,
        sourcePort: UInt16,
        destinationPort: UInt16,
        payload: [UInt8]
    ) {
        self.trafficClass = trafficClass
        self.flowLabel = flowLabel & 0xF_FFFF
        self.hopLimit = hopLimit
        self.source = source
        self.destination = destination
        self.sourcePort = sourcePort
        self.destinationPort = destinationPort
        self.payload = payload
    }

    public var dscp: DSCP { DSCP(rawValue: trafficClass >> 2) }
    /// Explicit Congestion Notification (RFC 3168), b0-b1 of Traffic Class.
    public var ecn: UInt8 { trafficClass & 0x03 }
    /// UDP Length: header plus payload.
    public var udpLength: Int { Self.udpHeaderLength + payload.count }

    /// The checksum this packet's UDP header carries.
    public var checksum: UInt16 {
        let value = IPv6Packet.upperLayerChecksum(
            source: source,
            destination: destination,
            nextHeader: Self.udpNextHeader,
            chunks: [udpHeader(checksum: 0)[...], payload[...]]
        )
        return value == 0 ? 0xFFFF : value
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let versionOffset = reader.offset
        let word = try reader.readUInt32BE("Version / Traffic Class / Flow Label")
        let version = word >> 28
        guard version == 6 else {
            throw reader.error(.invalidValue("Version \(version) is not 6"), field: "Version", at: versionOffset)
        }
        trafficClass = UInt8(truncatingIfNeeded: word >> 20)
        flowLabel = word & 0xF_FFFF
        let payloadLength = Int(try reader.readUInt16BE("Payload Length"))
        let nextHeaderOffset = reader.offset
        let nextHeader = try reader.readUInt8("Next Header")
        guard nextHeader == Self.udpNextHeader else {
            throw reader.error(
                .invalidValue("Next Header \(nextHeader) is not UDP (17); extension headers are not supported"),
                field: "Next Header",
                at: nextHeaderOffset
            )
        }
        hopLimit = try reader.readUInt8("Hop Limit")
        source = try IPv6Address(from: &reader)
        destination = try IPv6Address(from: &reader)
        guard payloadLength == reader.remaining else {
            throw reader.error(
                .lengthMismatch(declared: payloadLength, actual: reader.remaining),
                field: "Payload Length",
                at: versionOffset + 4
            )
        }
        var udp = try reader.subReader(length: payloadLength, structure: "UDP datagram", field: "Payload")
        sourcePort = try udp.readUInt16BE("Source Port")
        destinationPort = try udp.readUInt16BE("Destination Port")
        let lengthOffset = udp.offset
        let length = Int(try udp.readUInt16BE("Length"))
        guard length == payloadLength else {
            throw udp.error(
                .lengthMismatch(declared: length, actual: payloadLength),
                field: "Length",
                at: lengthOffset
            )
        }
        let checksumOffset = udp.offset
        let received = try udp.readUInt16BE("Checksum")
        payload = udp.readRemaining()
        guard received != 0 else {
            throw udp.error(
                .invalidValue("checksum 0 (none) is not allowed over IPv6 (RFC 8200 8.1)"),
                field: "Checksum",
                at: checksumOffset
            )
        }
        let expected = checksum
        guard received == expected else {
            throw udp.error(
                .invalidValue(InternetChecksum.mismatch(received: received, expected: expected)),
                field: "Checksum",
                at: checksumOffset
            )
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt32BE(6 << 28 | UInt32(trafficClass) << 20 | flowLabel & 0xF_FFFF)
        writer.writeUInt16BE(UInt16(truncatingIfNeeded: udpLength))
        writer.write(Self.udpNextHeader)
        writer.write(hopLimit)
        source.write(to: &writer)
        destination.write(to: &writer)
        writer.write(udpHeader(checksum: checksum))
        writer.write(payload)
    }

    private func udpHeader(checksum: UInt16) -> [UInt8] {
        var writer = WireWriter(capacity: 8)
        writer.writeUInt16BE(sourcePort)
        writer.writeUInt16BE(destinationPort)
        writer.writeUInt16BE(UInt16(truncatingIfNeeded: udpLength))
        writer.writeUInt16BE(checksum)
        return writer.bytes
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("version", "Version", .unsigned(6)),
            DecodedField("trafficClass", "Traffic Class", .bits(UInt64(trafficClass), digits: 2)),
            DecodedField("dscp", "DSCP", .unsigned(UInt64(dscp.rawValue))),
            DecodedField("ecn", "ECN", .unsigned(UInt64(ecn))),
            DecodedField("flowLabel", "Flow Label", .bits(UInt64(flowLabel), digits: 5)),
            DecodedField("payloadLength", "Payload Length", .unsigned(UInt64(udpLength))),
            DecodedField("nextHeader", "Next Header", .named(UInt64(Self.udpNextHeader), "UDP")),
            DecodedField("hopLimit", "Hop Limit", .unsigned(UInt64(hopLimit))),
            DecodedField("source", "Source Address", .text(source.description)),
            DecodedField("destination", "Destination Address", .text(destination.description)),
            DecodedField(
                "udp",
                "UDP",
                .fields([
                    DecodedField("sourcePort", "Source Port", .unsigned(UInt64(sourcePort))),
                    DecodedField("destinationPort", "Destination Port", .unsigned(UInt64(destinationPort))),
                    DecodedField("length", "Length", .unsigned(UInt64(udpLength))),
                    DecodedField("checksum", "Checksum", .bits(UInt64(checksum), digits: 4)),
                ])
            ),
            DecodedField("payload", "Payload", .bytes(payload)),
        ]
    }
}

/// A Differentiated Services Code Point (RFC 2474): the upper 6 bits of the IPv6 Traffic
/// Class octet.
///
/// The sender picks the code point of the traffic's access category with the mapping of RFC
/// 8325 (4.3), read the other way round: Voice = EF (46, mapped to UP 6), Video = AF41 (34,
/// UP 4), Best Effort = CS0 (0, UP 0), Background = CS1 (8, UP 1). A receiver that applies
/// RFC 8325 then lands the packet in the same category.
public struct DSCP: RawRepresentable, Hashable, Sendable {
    /// The 6-bit code point (values above 63 keep their low 6 bits).
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x3F }

    /// Class Selector 0, default forwarding: Best Effort.
    public static let cs0 = DSCP(rawValue: 0)
    /// Class Selector 1, low-priority data: Background.
    public static let cs1 = DSCP(rawValue: 8)
    /// Assured Forwarding 41, multimedia conferencing: Video.
    public static let af41 = DSCP(rawValue: 34)
    /// Expedited Forwarding, telephony: Voice.
    public static let expeditedForwarding = DSCP(rawValue: 46)

    /// The code point for traffic of 802.1D user priority `userPriority` (a TID 0-7): one per
    /// access category (IEEE 802.11-2020 Table 10-1 groups the priorities; RFC 8325 4.3
    /// names the code point of each).
    public init(userPriority: UInt8) {
        switch userPriority & 0x07 {
        case 1, 2: self = .cs1
        case 0, 3: self = .cs0
        case 4, 5: self = .af41
        default: self = .expeditedForwarding
        }
    }

    /// The Traffic Class octet with this code point and ECN 00 (not ECN-capable).
    public var trafficClass: UInt8 { rawValue << 2 }
}

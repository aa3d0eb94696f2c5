import AwareCore

/// Next Header values of the upper-layer protocols the bench's IPv6 stack speaks (IANA
/// Assigned Internet Protocol Numbers; RFC 8200 4 puts them in the Next Header field).
public enum IPNextHeader {
    /// TCP (RFC 9293).
    public static let tcp: UInt8 = 6
    /// UDP (RFC 768).
    public static let udp: UInt8 = 17
    /// ICMPv6 (RFC 4443).
    public static let icmpv6: UInt8 = 58

    /// The protocol's name, for people; nil for the numbers above not listed here.
    static func name(_ value: UInt8) -> String? {
        switch value {
        case tcp: "TCP"
        case udp: "UDP"
        case icmpv6: "ICMPv6"
        default: nil
        }
    }
}

/// An IPv6 packet (RFC 8200 3): the 40-octet header and its payload. Extension headers are
/// not interpreted: whatever follows the header is the payload of `nextHeader`.
///
/// Version (6) and Payload Length are derived when written and checked when read, so a
/// packet that parses writes back byte-exact. A Payload Length of 0 with a Jumbo Payload
/// option (RFC 2675) is not supported: the length must equal the octets that follow.
public struct IPv6Packet: Hashable, Sendable, WireCodable, WireDescribable {
    public static let structureName = "IPv6 packet"
    public static let headerLength = 40

    /// Traffic Class: DSCP (b2-b7) and ECN (b0-b1).
    public var trafficClass: UInt8
    /// The 20-bit Flow Label (higher bits are dropped when written).
    public var flowLabel: UInt32
    public var nextHeader: UInt8
    public var hopLimit: UInt8
    public var source: IPv6Address
    public var destination: IPv6Address
    /// Everything after the fixed header (at most 65,535 octets: Payload Length is 16 bits).
    public var payload: [UInt8]

    public init(
        trafficClass: UInt8 = 0,
        flowLabel: UInt32 = 0,
        nextHeader: UInt8,
        hopLimit: UInt8,
        source: IPv6Address,
        destination: IPv6Address,
        payload: [UInt8]
    ) {
        self.trafficClass = trafficClass
        self.flowLabel = flowLabel & 0xF_FFFF
        self.nextHeader = nextHeader
        self.hopLimit = hopLimit
        self.source = source
        self.destination = destination
        self.payload = payload
    }

    /// Parses a whole packet.
    public init(bytes: some Collection<UInt8>) throws(WireError) {
        try self.init(wireBytes: bytes, structure: Self.structureName)
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
        let payloadLengthOffset = reader.offset
        let payloadLength = Int(try reader.readUInt16BE("Payload Length"))
        nextHeader = try reader.readUInt8("Next Header")
        hopLimit = try reader.readUInt8("Hop Limit")
        source = try IPv6Address(from: &reader)
        destination = try IPv6Address(from: &reader)
        guard payloadLength == reader.remaining else {
            throw reader.error(
                .lengthMismatch(declared: payloadLength, actual: reader.remaining),
                field: "Payload Length",
                at: payloadLengthOffset
            )
        }
        payload = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        precondition(payload.count <= 0xFFFF, "IPv6 payload of \(payload.count) octets needs a Jumbo Payload")
        writer.writeUInt32BE(6 << 28 | UInt32(trafficClass) << 20 | flowLabel & 0xF_FFFF)
        writer.writeUInt16BE(UInt16(payload.count))
        writer.write(nextHeader)
        writer.write(hopLimit)
        source.write(to: &writer)
        destination.write(to: &writer)
        writer.write(payload)
    }

    /// The Internet checksum of an upper-layer message carried in IPv6 (RFC 8200 8.1): the
    /// one's complement of the one's-complement sum over the pseudo-header (Source Address,
    /// Destination Address, the upper-layer packet length as 32 bits, three zero octets, Next
    /// Header) and `body`, whose checksum field the caller has set to zero. ICMPv6 (RFC 4443
    /// 2.3), TCP (RFC 9293 3.1) and UDP use it.
    public static func upperLayerChecksum(
        source: IPv6Address,
        destination: IPv6Address,
        nextHeader: UInt8,
        body: [UInt8]
    ) -> UInt16 {
        upperLayerChecksum(source: source, destination: destination, nextHeader: nextHeader, chunks: [body[...]])
    }

    /// Checks the Checksum field at `offset` of `body` (an ICMPv6 message or a TCP segment
    /// from `source` to `destination`) against the sum of RFC 8200 8.1 taken with the field
    /// zeroed; a mismatch is `reader`'s error at that field.
    static func checkUpperLayerChecksum(
        of body: [UInt8],
        at offset: Int,
        source: IPv6Address,
        destination: IPv6Address,
        nextHeader: UInt8,
        reader: WireReader
    ) throws(WireError) {
        let received = UInt16(body[offset]) << 8 | UInt16(body[offset + 1])
        let before = body[..<offset]
        let after = body[(offset + 2)...]
        let expected = upperLayerChecksum(
            source: source,
            destination: destination,
            nextHeader: nextHeader,
            chunks: [before, [0, 0][...], after]
        )
        guard received == expected else {
            throw reader.error(
                .invalidValue(InternetChecksum.mismatch(received: received, expected: expected)),
                field: "Checksum",
                at: offset
            )
        }
    }

    /// The same over `chunks` read as one run of octets, so a caller need not join a header
    /// and its payload first.
    static func upperLayerChecksum(
        source: IPv6Address,
        destination: IPv6Address,
        nextHeader: UInt8,
        chunks: [ArraySlice<UInt8>]
    ) -> UInt16 {
        let length = chunks.reduce(0) { $0 + $1.count }
        var pseudoHeader = WireWriter(capacity: 40)
        source.write(to: &pseudoHeader)
        destination.write(to: &pseudoHeader)
        pseudoHeader.writeUInt32BE(UInt32(truncatingIfNeeded: length))
        pseudoHeader.write([0, 0, 0, nextHeader])
        return ~InternetChecksum.sum([pseudoHeader.bytes[...]] + chunks)
    }

    /// The payload decoded as what Next Header names, when it is ICMPv6 or TCP and parses;
    /// nil otherwise.
    private var decodedPayload: DecodedField? {
        switch nextHeader {
        case IPNextHeader.icmpv6:
            guard let message = try? ICMPv6Message(bytes: payload, source: source, destination: destination)
            else { return nil }
            return DecodedField(
                "icmpv6",
                "ICMPv6",
                .fields(message.decodedFields(source: source, destination: destination))
            )
        case IPNextHeader.tcp:
            guard let segment = try? TCPSegment(bytes: payload, source: source, destination: destination)
            else { return nil }
            return DecodedField("tcp", "TCP", .fields(segment.decodedFields(source: source, destination: destination)))
        default:
            return nil
        }
    }

    public var decodedFields: [DecodedField] {
        let nextHeaderValue: DecodedValue =
            IPNextHeader.name(nextHeader).map { .named(UInt64(nextHeader), $0) } ?? .unsigned(UInt64(nextHeader))
        return [
            DecodedField("version", "Version", .unsigned(6)),
            DecodedField("trafficClass", "Traffic Class", .bits(UInt64(trafficClass), digits: 2)),
            DecodedField("flowLabel", "Flow Label", .bits(UInt64(flowLabel), digits: 5)),
            DecodedField("payloadLength", "Payload Length", .unsigned(UInt64(payload.count))),
            DecodedField("nextHeader", "Next Header", nextHeaderValue),
            DecodedField("hopLimit", "Hop Limit", .unsigned(UInt64(hopLimit))),
            DecodedField("source", "Source Address", .text(source.description)),
            DecodedField("destination", "Destination Address", .text(destination.description)),
            decodedPayload ?? DecodedField("payload", "Payload", .bytes(payload)),
        ]
    }
}

/// The Internet checksum (RFC 1071): the one's complement of the one's-complement sum of
/// 16-bit big-endian words, an odd last octet padded with a zero octet.
enum InternetChecksum {
    /// The folded one's-complement sum of `chunks`, read as one run of octets.
    static func sum(_ chunks: [ArraySlice<UInt8>]) -> UInt16 {
        // Word by word over each chunk's buffer: an iterator per octet costs more than the sum
        // (every data frame's UDP checksum is taken twice, when made and when received).
        var total: UInt64 = 0
        var odd = false
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { buffer in
                var index = 0
                if odd, !buffer.isEmpty {
                    // The low octet of a word whose high octet ended the previous chunk.
                    total &+= UInt64(buffer[0])
                    index = 1
                    odd = false
                }
                while index + 1 < buffer.count {
                    total &+= UInt64(buffer[index]) << 8 | UInt64(buffer[index + 1])
                    index += 2
                }
                if index < buffer.count {
                    total &+= UInt64(buffer[index]) << 8
                    odd = true
                }
            }
        }
        while total > 0xFFFF { total = (total & 0xFFFF) + (total >> 16) }
        return UInt16(truncatingIfNeeded: total)
    }

    /// "checksum 0x1234 does not match 0x5678": the text of a checksum error.
    static func mismatch(received: UInt16, expected: UInt16) -> String {
        "checksum 0x\(hex(received)) does not match 0x\(hex(expected))"
    }

    private static func hex(_ value: UInt16) -> String {
        HexString.byte(UInt8(value >> 8)) + HexString.byte(UInt8(value & 0xFF))
    }
}

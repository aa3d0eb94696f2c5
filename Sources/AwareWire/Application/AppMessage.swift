import AwareCore

/// One application message: the payload of one UDP datagram on the NAN data path, or the
/// Service Info of a follow-up (``FollowUpAppMessage``). Big-endian, like the IP and UDP
/// headers it rides behind (the NAN attributes around it are little-endian; this is not one).
///
/// ```
/// Magic "AB" (2) | Version 1 (1) | Kind (1) | Flow ID (2) | Sequence (4) |
/// Sent At (8, ns of the sender's clock) | Payload Length (2) | Payload
/// ```
public struct AppMessage: Hashable, Sendable {
    public static let magic: [UInt8] = [0x41, 0x42]
    public static let version: UInt8 = 1
    /// Octets before the payload.
    public static let headerLength = 20
    /// The Payload Length field is two octets.
    public static let maximumPayloadLength = 0xFFFF
    static let structure = "Application message"

    /// Which conversation the message belongs to: a datagram stream, a reliable connection.
    public var flowID: UInt16
    /// Per flow: the datagram or segment number, or for an ack the next sequence expected.
    public var sequence: UInt32
    /// When the sender sent it, in nanoseconds of the sender's clock (for one-way latency
    /// between ends that share a clock: the simulated air, or processes on one host).
    public var sentAt: UInt64
    public var body: AppMessageBody

    public init(flowID: UInt16, sequence: UInt32, sentAt: UInt64, body: AppMessageBody) {
        self.flowID = flowID
        self.sequence = sequence
        self.sentAt = sentAt
        self.body = body
    }

    public var kind: AppMessageKind { body.kind }
}

extension AppMessage: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        let magicOffset = reader.offset
        guard try reader.readBytes(2, "Magic") == Self.magic else {
            throw reader.error(.invalidValue("magic is not \"AB\" (41 42)"), field: "Magic", at: magicOffset)
        }
        let versionOffset = reader.offset
        let version = try reader.readUInt8("Version")
        guard version == Self.version else {
            throw reader.error(.invalidValue("version \(version) is not 1"), field: "Version", at: versionOffset)
        }
        let kindOffset = reader.offset
        let rawKind = try reader.readUInt8("Kind")
        guard let kind = AppMessageKind(rawValue: rawKind) else {
            throw reader.error(
                .invalidValue("unknown kind 0x\(HexString.byte(rawKind))"),
                field: "Kind",
                at: kindOffset
            )
        }
        flowID = try reader.readUInt16BE("Flow ID")
        sequence = try reader.readUInt32BE("Sequence")
        sentAt = try reader.readUInt64BE("Sent At")
        let length = Int(try reader.readUInt16BE("Payload Length"))
        var payload = try reader.subReader(length: length, structure: "\(kind.name) payload", field: "Payload")
        body = try AppMessageBody(kind: kind, from: &payload)
    }

    public func write(to writer: inout WireWriter) {
        writer.write(Self.magic)
        writer.write(Self.version)
        writer.write(kind.rawValue)
        writer.writeUInt16BE(flowID)
        writer.writeUInt32BE(sequence)
        writer.writeUInt64BE(sentAt)
        writer.withLength16BE { body.write(to: &$0) }
    }

    /// Parses one whole datagram payload.
    public init(datagram bytes: some Collection<UInt8>) throws(WireError) {
        try self.init(wireBytes: bytes, structure: Self.structure)
    }
}

extension AppMessage: WireDescribable {
    public var decodedFields: [DecodedField] {
        let payload = body.payloadBytes
        return [
            DecodedField("magic", "Magic", .bytes(Self.magic)),
            DecodedField("version", "Version", .unsigned(UInt64(Self.version))),
            DecodedField("kind", "Kind", .named(UInt64(kind.rawValue), kind.name)),
            DecodedField("flowID", "Flow ID", .unsigned(UInt64(flowID))),
            DecodedField("sequence", "Sequence", .unsigned(UInt64(sequence))),
            DecodedField("sentAt", "Sent At (ns)", .unsigned(sentAt)),
            DecodedField("payloadLength", "Payload Length", .unsigned(UInt64(payload.count))),
            DecodedField("payload", "Payload", body.decodedValue),
        ]
    }
}

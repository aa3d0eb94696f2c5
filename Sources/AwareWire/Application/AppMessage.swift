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

/// The payload of an ``AppMessage``, typed by its kind.
public enum AppMessageBody: Hashable, Sendable {
    case datagram([UInt8])
    case segment([UInt8])
    /// No payload: this bench does not send selective acknowledgements.
    case ack
    case control([UInt8])
    case fileRequest(FileRequest)
    case fileHeader(FileHeader)
    case fileChunk(FileChunk)
    /// No payload: every chunk of the file has been sent.
    case fileEnd
    case fileError(FileError)

    public var kind: AppMessageKind {
        switch self {
        case .datagram: .datagram
        case .segment: .segment
        case .ack: .ack
        case .control: .control
        case .fileRequest: .fileRequest
        case .fileHeader: .fileHeader
        case .fileChunk: .fileChunk
        case .fileEnd: .fileEnd
        case .fileError: .fileError
        }
    }

    /// Reads the payload of a message of `kind` from a reader bounded to the payload; the
    /// whole payload must be consumed.
    init(kind: AppMessageKind, from reader: inout WireReader) throws(WireError) {
        switch kind {
        case .datagram: self = .datagram(reader.readRemaining())
        case .segment: self = .segment(reader.readRemaining())
        case .control: self = .control(reader.readRemaining())
        case .ack: self = .ack
        case .fileEnd: self = .fileEnd
        case .fileRequest: self = .fileRequest(try FileRequest(from: &reader))
        case .fileHeader: self = .fileHeader(try FileHeader(from: &reader))
        case .fileChunk: self = .fileChunk(try FileChunk(from: &reader))
        case .fileError: self = .fileError(try FileError(from: &reader))
        }
        try reader.expectEnd()
    }

    func write(to writer: inout WireWriter) {
        switch self {
        case .datagram(let octets), .segment(let octets), .control(let octets): writer.write(octets)
        case .ack, .fileEnd: break
        case .fileRequest(let request): request.write(to: &writer)
        case .fileHeader(let header): header.write(to: &writer)
        case .fileChunk(let chunk): chunk.write(to: &writer)
        case .fileError(let error): error.write(to: &writer)
        }
    }

    /// The payload's octets.
    public var payloadBytes: [UInt8] {
        var writer = WireWriter()
        write(to: &writer)
        return writer.bytes
    }

    var decodedValue: DecodedValue {
        switch self {
        case .datagram(let octets), .segment(let octets), .control(let octets): .bytes(octets)
        case .ack, .fileEnd: .fields([])
        case .fileRequest(let request): .fields(request.decodedFields)
        case .fileHeader(let header): .fields(header.decodedFields)
        case .fileChunk(let chunk): .fields(chunk.decodedFields)
        case .fileError(let error): .fields(error.decodedFields)
        }
    }
}

/// What an ``AppMessage`` carries: the bench's own application protocol, not a NAN structure.
/// A closed set: a kind the bench does not define is a parse error, because both ends are the
/// bench and an unknown kind means a version skew or a corrupted datagram.
public enum AppMessageKind: UInt8, Hashable, Sendable, CaseIterable {
    /// Unreliable telemetry (Multipeer "unreliable"): never acknowledged or retransmitted.
    case datagram = 0x01
    /// Reliable data (Multipeer "reliable"): acknowledged, retransmitted, delivered in order.
    case segment = 0x02
    /// Cumulative acknowledgement: the sequence is the next one the receiver expects.
    case ack = 0x03
    /// A request or response of the bench's control exchange (token, parameters).
    case control = 0x04
    case fileRequest = 0x10
    case fileHeader = 0x11
    case fileChunk = 0x12
    case fileEnd = 0x13
    case fileError = 0x14

    public var name: String {
        switch self {
        case .datagram: "Datagram"
        case .segment: "Segment"
        case .ack: "Ack"
        case .control: "Control"
        case .fileRequest: "File Request"
        case .fileHeader: "File Header"
        case .fileChunk: "File Chunk"
        case .fileEnd: "File End"
        case .fileError: "File Error"
        }
    }

    /// Whether messages of this kind travel on the reliable flow (sequenced and acknowledged).
    public var isReliable: Bool {
        switch self {
        case .datagram, .ack: false
        default: true
        }
    }
}

/// Names and texts travel as UTF-8 without a terminator or length: they fill the rest of the
/// payload. Invalid UTF-8 is an error, so a name that parses re-encodes to the same octets.
enum UTF8Text {
    static func read(from reader: inout WireReader, field: String) throws(WireError) -> String {
        let offset = reader.offset
        let octets = reader.readRemaining()
        guard let name = String(validating: octets, as: UTF8.self) else {
            throw reader.error(.invalidValue("\(field) is not valid UTF-8"), field: field, at: offset)
        }
        return name
    }
}

import AwareCore

/// What the phone and the accessory's application say to each other on the control flow (a
/// reliable flow, ``AppMessageBody/control(_:)``): the bench's stand-in for an app's own
/// protocol, just enough to drive and check the data path. Big-endian, one operation octet
/// first:
///
/// ```
/// 0x01 Ping        | Token (rest)            0x02 Pong | Token (rest)
/// 0x03 StartStream | Rate (4, mHz) | Payload Octets (2) | Duration (4, ms) | TID (1, 0xFF = the
///                    accessory's own service class) | Reliable (1, 0 or 1)
/// 0x04 StreamStarted | Flow ID (2)           0x05 StopStream
/// 0x06 StreamStopped | Datagrams Sent (4)    0x07 ReportRequest
/// 0x08 Report | JSON text (rest, UTF-8)      0x09 Refused | Reason (rest, UTF-8)
/// ```
public enum ControlMessage: Hashable, Sendable {
    case ping([UInt8])
    case pong([UInt8])
    case startStream(StreamRequest)
    case streamStarted(flowID: UInt16)
    case stopStream
    case streamStopped(datagramsSent: UInt32)
    case reportRequest
    case report(String)
    case refused(String)

    /// A stream the phone asks the accessory for.
    public struct StreamRequest: Hashable, Sendable {
        /// Datagrams per second, in thousandths (50 Hz = 50 000).
        public var rateMillihertz: UInt32
        public var payloadOctets: UInt16
        public var durationMilliseconds: UInt32
        /// The TID (user priority) to send with; nil keeps the accessory's service class.
        public var tid: UInt8?
        /// In order and retransmitted (a file-like stream) rather than datagrams.
        public var reliable: Bool

        public init(
            rateMillihertz: UInt32,
            payloadOctets: UInt16,
            durationMilliseconds: UInt32,
            tid: UInt8? = nil,
            reliable: Bool = false
        ) {
            self.rateMillihertz = rateMillihertz
            self.payloadOctets = payloadOctets
            self.durationMilliseconds = durationMilliseconds
            self.tid = tid
            self.reliable = reliable
        }

        public var rateHz: Double { Double(rateMillihertz) / 1_000 }
    }

    public var operation: UInt8 {
        switch self {
        case .ping: 0x01
        case .pong: 0x02
        case .startStream: 0x03
        case .streamStarted: 0x04
        case .stopStream: 0x05
        case .streamStopped: 0x06
        case .reportRequest: 0x07
        case .report: 0x08
        case .refused: 0x09
        }
    }
}

extension ControlMessage: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        let operationOffset = reader.offset
        let operation = try reader.readUInt8("Operation")
        switch operation {
        case 0x01: self = .ping(reader.readRemaining())
        case 0x02: self = .pong(reader.readRemaining())
        case 0x03:
            let rate = try reader.readUInt32BE("Rate")
            let octets = try reader.readUInt16BE("Payload Octets")
            let duration = try reader.readUInt32BE("Duration")
            let tid = try reader.readUInt8("TID")
            let reliableOffset = reader.offset
            let reliable = try reader.readUInt8("Reliable")
            guard tid == 0xFF || tid < 8 else {
                throw reader.error(.invalidValue("TID \(tid) is not 0-7 or 0xFF"), field: "TID", at: reliableOffset - 1)
            }
            guard reliable <= 1 else {
                throw reader.error(
                    .invalidValue("Reliable is \(reliable), not 0 or 1"),
                    field: "Reliable",
                    at: reliableOffset
                )
            }
            self = .startStream(
                StreamRequest(
                    rateMillihertz: rate,
                    payloadOctets: octets,
                    durationMilliseconds: duration,
                    tid: tid == 0xFF ? nil : tid,
                    reliable: reliable == 1
                )
            )
        case 0x04: self = .streamStarted(flowID: try reader.readUInt16BE("Flow ID"))
        case 0x05: self = .stopStream
        case 0x06: self = .streamStopped(datagramsSent: try reader.readUInt32BE("Datagrams Sent"))
        case 0x07: self = .reportRequest
        case 0x08: self = .report(try UTF8Text.read(from: &reader, field: "Report"))
        case 0x09: self = .refused(try UTF8Text.read(from: &reader, field: "Reason"))
        default:
            throw reader.error(
                .invalidValue("unknown operation 0x\(HexString.byte(operation))"),
                field: "Operation",
                at: operationOffset
            )
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(operation)
        switch self {
        case .ping(let token), .pong(let token): writer.write(token)
        case .startStream(let request):
            writer.writeUInt32BE(request.rateMillihertz)
            writer.writeUInt16BE(request.payloadOctets)
            writer.writeUInt32BE(request.durationMilliseconds)
            writer.write(request.tid ?? 0xFF)
            writer.write(request.reliable ? 1 : 0)
        case .streamStarted(let flowID): writer.writeUInt16BE(flowID)
        case .stopStream, .reportRequest: break
        case .streamStopped(let sent): writer.writeUInt32BE(sent)
        case .report(let text), .refused(let text): writer.write(Array(text.utf8))
        }
    }

    /// Parses a control payload.
    public init(payload: [UInt8]) throws(WireError) {
        try self.init(wireBytes: payload, structure: "Control message")
    }
}

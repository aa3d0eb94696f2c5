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

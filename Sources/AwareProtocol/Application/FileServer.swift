import AwareCore
import AwareWire

/// The file service of Apple's WWDC25 example (`_file-service._tcp`), over the reliable flow.
///
/// Files are ``FileContent``: generated from name and size, a chunk at a time as the send
/// window opens, so a server of a 700 MB clip holds one window of chunks, not the clip. Each
/// client connection is a flow ID of its own (a resume comes on a new one, like a new TCP
/// connection); a connection whose client stopped acknowledging is dropped.
public struct FileServer: Sendable {
    struct Transfer: Sendable {
        var content: FileContent
        var nextOffset: UInt64
        var ended = false
    }

    struct Connection: Sendable {
        var endpoint: ReliableEndpoint
        var transfer: Transfer?
    }

    /// Data octets per chunk; the chunk's 8-octet offset and the 20-octet header come on top.
    public let chunkSize: Int
    public let configuration: ReliableConfiguration
    private var files: [String: FileContent] = [:]
    private var digests: [String: [UInt8]] = [:]
    private var connections: [UInt16: Connection] = [:]

    /// 1 400-octet chunks: with the chunk's offset (8), the message header (20), UDP (8) and IPv6
    /// (40) a segment stays within the 1 500-octet MTU of the data path.
    public init(files: [FileContent], chunkSize: Int = 1_400, configuration: ReliableConfiguration = .bulk) {
        self.chunkSize = min(max(1, chunkSize), AppMessage.maximumPayloadLength - 8)
        self.configuration = configuration
        for file in files { add(file) }
    }

    /// Serves `file`; `sha256`, when known, spares hashing the whole file on the first request.
    public mutating func add(_ file: FileContent, sha256: [UInt8]? = nil) {
        files[file.name] = file
        digests[file.name] = sha256
    }

    /// Flows with a live connection.
    public var connectionFlowIDs: [UInt16] { connections.keys.sorted() }

    public mutating func handle(_ event: FileServerEvent, now: Instant) -> [FileServerAction] {
        switch event {
        case .received(let message): receive(message, now: now)
        case .timerFired(let flowID): timerFired(flowID: flowID, now: now)
        }
    }

    private mutating func receive(_ message: AppMessage, now: Instant) -> [FileServerAction] {
        let flowID = message.flowID
        guard var connection = connections[flowID] ?? newConnection(for: message) else { return [] }
        let reliable = connection.endpoint.receive(message, now: now)
        var actions = reliable.fileServerActions(flowID: flowID)
        for case .notify(.deliver(let body)) in reliable {
            actions += serve(body, on: &connection, now: now)
        }
        actions += pump(&connection, now: now)
        connections[flowID] = connection
        return actions
    }

    private mutating func timerFired(flowID: UInt16, now: Instant) -> [FileServerAction] {
        guard var connection = connections[flowID] else { return [] }
        let reliable = connection.endpoint.timerFired(now: now)
        for case .notify(.failed(let failure)) in reliable {
            connections[flowID] = nil
            return [.notify(.connectionLost(flowID: flowID, failure))]
        }
        connections[flowID] = connection
        return reliable.fileServerActions(flowID: flowID)
    }

    /// A connection starts with a client's first reliable message; a stray ack opens nothing.
    private func newConnection(for message: AppMessage) -> Connection? {
        guard message.kind.isReliable else { return nil }
        return Connection(endpoint: ReliableEndpoint(flowID: message.flowID, configuration: configuration))
    }

    private mutating func serve(
        _ body: AppMessageBody,
        on connection: inout Connection,
        now: Instant
    )
        -> [FileServerAction]
    {
        let flowID = connection.endpoint.flowID
        guard case .fileRequest(let request) = body else {
            let refusal = FileError(code: .badRequest, text: "expected a file request, got \(body.kind.name)")
            return connection.endpoint.send(.fileError(refusal), now: now).fileServerActions(flowID: flowID)
        }
        guard let content = files[request.name] else {
            connection.transfer = nil
            let refusal = FileError(code: .notFound, text: "no file named \"\(request.name)\"")
            return connection.endpoint.send(.fileError(refusal), now: now).fileServerActions(flowID: flowID)
        }
        guard request.offset <= content.size else {
            connection.transfer = nil
            let refusal = FileError(
                code: .invalidOffset,
                text: "offset \(request.offset) is past the end of \"\(request.name)\" (\(content.size) octets)"
            )
            return connection.endpoint.send(.fileError(refusal), now: now).fileServerActions(flowID: flowID)
        }
        let digest = digests[request.name] ?? content.sha256
        digests[request.name] = digest
        connection.transfer = Transfer(content: content, nextOffset: request.offset)
        let header = FileHeader(size: content.size, sha256: digest, name: request.name)
        return connection.endpoint.send(.fileHeader(header), now: now).fileServerActions(flowID: flowID)
    }

    /// Generates chunks while the window has room, then the end marker.
    private func pump(_ connection: inout Connection, now: Instant) -> [FileServerAction] {
        guard var transfer = connection.transfer, !transfer.ended else { return [] }
        var actions: [FileServerAction] = []
        let flowID = connection.endpoint.flowID
        while connection.endpoint.sender.availableWindow > 0, !transfer.ended {
            let body: AppMessageBody
            if transfer.nextOffset < transfer.content.size {
                let data = transfer.content.bytes(at: transfer.nextOffset, count: chunkSize)
                body = .fileChunk(FileChunk(offset: transfer.nextOffset, data: data))
                transfer.nextOffset += UInt64(data.count)
            } else {
                body = .fileEnd
                transfer.ended = true
            }
            actions += connection.endpoint.send(body, now: now).fileServerActions(flowID: flowID)
        }
        connection.transfer = transfer
        return actions
    }
}

extension FileServer: ProtocolMachine {
    /// The file service draws no randomness.
    public mutating func handle(
        _ event: FileServerEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [FileServerAction] {
        handle(event, now: now)
    }

    public static func timerEvent(_ timer: FileServerTimer) -> FileServerEvent {
        switch timer {
        case .retransmission(let flowID): .timerFired(flowID: flowID)
        }
    }
}

/// What the owner feeds a ``FileServer``.
public enum FileServerEvent: Hashable, Sendable {
    /// A message arrived on the file service's port.
    case received(AppMessage)
    /// The retransmission timer of the connection on `flowID` fired.
    case timerFired(flowID: UInt16)
}

/// What a ``FileServer`` asks its driver to do.
public typealias FileServerAction = MachineAction<AppMessage, FileServerTimer, FileServerNotification>

/// A server's timers: one per connection, because it runs one reliable flow per client (and
/// per resume).
public enum FileServerTimer: Hashable, Sendable {
    case retransmission(flowID: UInt16)
}

/// What a ``FileServer`` reports.
public enum FileServerNotification: Hashable, Sendable {
    /// The server gave up on a connection (the client is gone); the client may come back on a
    /// new flow.
    case connectionLost(flowID: UInt16, ReliableFailure)
}

extension [ReliableAction] {
    /// The transmissions and timer of connection `flowID`'s reliable flow, in file-server terms;
    /// deliveries and failures are the caller's to interpret.
    func fileServerActions(flowID: UInt16) -> [FileServerAction] {
        compactMap { action in
            switch action {
            case .transmit(let message): .transmit(message)
            case .arm(.retransmission, let deadline): .arm(.retransmission(flowID: flowID), at: deadline)
            case .cancel(.retransmission): .cancel(.retransmission(flowID: flowID))
            case .notify: nil
            }
        }
    }
}

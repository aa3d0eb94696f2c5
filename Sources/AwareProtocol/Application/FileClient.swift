import AwareCore
import AwareWire

/// Fetches one file from a ``FileServer`` over the reliable flow and checks it.
///
/// The client keeps no copy of the file: it feeds each chunk to a running SHA-256 and counts
/// octets. When the link drops it keeps that state; ``resume(now:)`` opens a new connection (the
/// next flow ID) and asks for the file from the first octet it lacks, and the final digest still
/// covers the whole file because the running hash simply continues.
///
/// A client that only acknowledges has nothing of its own to retransmit, so it cannot learn of
/// a dead link from the reliable flow: if the server is silent for `idleTimeout` while a
/// transfer is under way, the client stops as interrupted (``FileTransferInterruption/peerSilent``).
public struct FileClient: Sendable {
    public enum State: Hashable, Sendable {
        case idle
        case requesting
        case receiving
        case completed(FileTransferResult)
        case refused(FileError)
        case interrupted(FileTransferInterruption)
    }

    public let name: String
    public let configuration: ReliableConfiguration
    public let idleTimeout: Interval
    /// The flow of the current connection; each resume takes the next one.
    public private(set) var flowID: UInt16
    public private(set) var state: State = .idle
    public private(set) var header: FileHeader?
    public private(set) var receivedBytes: UInt64 = 0
    public private(set) var resumes = 0
    private var digest = FileDigest()
    private var endpoint: ReliableEndpoint
    private var idleDeadline: Instant?

    public init(
        name: String,
        flowID: UInt16,
        configuration: ReliableConfiguration = .bulk,
        idleTimeout: Interval = .seconds(10)
    ) {
        self.name = name
        self.flowID = flowID
        self.configuration = configuration
        self.idleTimeout = idleTimeout
        self.endpoint = ReliableEndpoint(flowID: flowID, configuration: configuration)
    }

    /// Sends the request for the whole file.
    public mutating func start(now: Instant) -> [FileServiceAction] {
        guard state == .idle else { return [] }
        return request(now: now)
    }

    /// After an interruption: a new connection, asking for the file from `receivedBytes`.
    public mutating func resume(now: Instant) -> [FileServiceAction] {
        guard case .interrupted = state else { return [] }
        var actions: [FileServiceAction] = [.cancelTimer(flowID: flowID)]
        flowID &+= 1
        resumes += 1
        endpoint = ReliableEndpoint(flowID: flowID, configuration: configuration)
        actions += request(now: now)
        return actions
    }

    /// The driver knows the link is gone (the data path was torn down): stop, keep what arrived.
    public mutating func linkDropped() -> [FileServiceAction] {
        guard isActive else { return [] }
        return interrupt(.linkDropped)
    }

    public mutating func receive(_ message: AppMessage, now: Instant) -> [FileServiceAction] {
        guard isActive, message.flowID == flowID else { return [] }
        idleDeadline = now + idleTimeout
        let reliable = endpoint.receive(message, now: now)
        var actions = reliable.fileServiceActions(flowID: flowID)
        for case .deliver(let body) in reliable where isActive {
            actions += handle(body)
        }
        return withTimer(actions)
    }

    public mutating func timerFired(now: Instant) -> [FileServiceAction] {
        guard isActive else { return [] }
        if let idleDeadline, now >= idleDeadline {
            return interrupt(.peerSilent(idleTimeout))
        }
        let reliable = endpoint.timerFired(now: now)
        for case .failed(let failure) in reliable {
            return interrupt(.linkLost(failure))
        }
        return withTimer(reliable.fileServiceActions(flowID: flowID))
    }

    private var isActive: Bool { state == .requesting || state == .receiving }

    private mutating func request(now: Instant) -> [FileServiceAction] {
        state = .requesting
        idleDeadline = now + idleTimeout
        let body = AppMessageBody.fileRequest(FileRequest(name: name, offset: receivedBytes))
        return withTimer(endpoint.send(body, now: now).fileServiceActions(flowID: flowID))
    }

    /// One timer per flow: the earlier of the retransmission timer and the idle deadline, while
    /// the transfer is under way.
    private func withTimer(_ actions: [FileServiceAction]) -> [FileServiceAction] {
        var result = actions.filter {
            switch $0 {
            case .armTimer, .cancelTimer: false
            default: true
            }
        }
        guard isActive else { return result }
        let deadlines = [endpoint.sender.timerDeadline, idleDeadline].compactMap { $0 }
        result.append(deadlines.min().map { .armTimer(flowID: flowID, at: $0) } ?? .cancelTimer(flowID: flowID))
        return result
    }

    private mutating func handle(_ body: AppMessageBody) -> [FileServiceAction] {
        switch body {
        case .fileHeader(let announced):
            if let header, header.size != announced.size || header.sha256 != announced.sha256 {
                return interrupt(.fileChanged)
            }
            header = announced
            state = .receiving
            return [.event(.header(announced))]
        case .fileChunk(let chunk):
            guard let header else { return interrupt(.protocolViolation("a chunk before the file header")) }
            guard chunk.offset == receivedBytes else {
                return interrupt(.protocolViolation("chunk at offset \(chunk.offset), expected \(receivedBytes)"))
            }
            guard UInt64(chunk.data.count) <= header.size - receivedBytes else {
                return interrupt(.protocolViolation("chunk at offset \(chunk.offset) runs past the end of the file"))
            }
            digest.update(chunk.data)
            receivedBytes += UInt64(chunk.data.count)
            let fraction = header.size == 0 ? 1 : Double(receivedBytes) / Double(header.size)
            return [.event(.progress(bytes: receivedBytes, fraction: fraction))]
        case .fileEnd:
            guard let header else { return interrupt(.protocolViolation("file end before the file header")) }
            let result = FileTransferResult(
                name: name,
                size: header.size,
                receivedBytes: receivedBytes,
                expectedSHA256: header.sha256,
                computedSHA256: digest.finalize(),
                resumes: resumes
            )
            state = .completed(result)
            idleDeadline = nil
            return [.event(.completed(result))]
        case .fileError(let refusal):
            state = .refused(refusal)
            idleDeadline = nil
            return [.cancelTimer(flowID: flowID), .event(.refused(refusal))]
        default:
            return []
        }
    }

    private mutating func interrupt(_ reason: FileTransferInterruption) -> [FileServiceAction] {
        state = .interrupted(reason)
        idleDeadline = nil
        return [.cancelTimer(flowID: flowID), .event(.interrupted(reason, receivedBytes: receivedBytes))]
    }
}

/// What a ``FileClient`` reports.
public enum FileTransferEvent: Hashable, Sendable {
    /// The server accepted the request: the file's size and the digest it must hash to.
    case header(FileHeader)
    /// Octets received so far (from offset 0, across resumes) and their share of the file.
    case progress(bytes: UInt64, fraction: Double)
    case completed(FileTransferResult)
    /// The server refused the request (unknown file, bad offset).
    case refused(FileError)
    /// The transfer stopped; what was received is kept and ``FileClient/resume(now:)`` continues.
    case interrupted(FileTransferInterruption, receivedBytes: UInt64)
}

/// Why a transfer stopped before the end.
public enum FileTransferInterruption: Hashable, Sendable, CustomStringConvertible {
    /// The reliable flow gave up retransmitting.
    case linkLost(ReliableFailure)
    /// Nothing arrived from the server for this long while the transfer was under way.
    case peerSilent(Interval)
    /// The driver reported the link gone (``FileClient/linkDropped()``).
    case linkDropped
    /// On resume the server announced a different size or digest: the octets held are not its file's.
    case fileChanged
    /// The server sent something out of order (a chunk at the wrong offset, a chunk past the end).
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .linkLost(let failure): failure.description
        case .peerSilent(let interval): "the server was silent for \(interval)"
        case .linkDropped: "link dropped"
        case .fileChanged: "the server's file changed between attempts"
        case .protocolViolation(let text): "protocol violation: \(text)"
        }
    }
}

/// The end of a transfer: whether what arrived hashes to what the server announced.
public struct FileTransferResult: Hashable, Sendable {
    public var name: String
    public var size: UInt64
    public var receivedBytes: UInt64
    /// From the file header.
    public var expectedSHA256: [UInt8]
    /// Over every octet received, resumes included.
    public var computedSHA256: [UInt8]
    /// Times the transfer was resumed.
    public var resumes: Int

    public init(
        name: String,
        size: UInt64,
        receivedBytes: UInt64,
        expectedSHA256: [UInt8],
        computedSHA256: [UInt8],
        resumes: Int
    ) {
        self.name = name
        self.size = size
        self.receivedBytes = receivedBytes
        self.expectedSHA256 = expectedSHA256
        self.computedSHA256 = computedSHA256
        self.resumes = resumes
    }

    public var matches: Bool { receivedBytes == size && computedSHA256 == expectedSHA256 }
}

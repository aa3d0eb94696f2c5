import AwareCore
import AwareWire

/// Fetches one file from a ``FileServer`` over the reliable flow and checks it.
///
/// The client keeps no copy of the file: it feeds each chunk to a running SHA-256 and counts
/// octets. When the link drops it keeps that state; ``FileClientEvent/resume`` opens a new
/// connection (the next flow ID) and asks for the file from the first octet it lacks, and the
/// final digest still covers the whole file because the running hash simply continues.
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

    public mutating func handle(_ event: FileClientEvent, now: Instant) -> [FileClientAction] {
        switch event {
        case .start:
            guard state == .idle else { return [] }
            return request(now: now)
        case .resume:
            guard case .interrupted = state else { return [] }
            flowID &+= 1
            resumes += 1
            endpoint = ReliableEndpoint(flowID: flowID, configuration: configuration)
            return [.cancel(.transfer)] + request(now: now)
        case .linkDropped:
            guard isActive else { return [] }
            return interrupt(.linkDropped)
        case .received(let message):
            return receive(message, now: now)
        case .timerFired:
            return timerFired(now: now)
        }
    }

    private mutating func receive(_ message: AppMessage, now: Instant) -> [FileClientAction] {
        guard isActive, message.flowID == flowID else { return [] }
        idleDeadline = now + idleTimeout
        let reliable = endpoint.receive(message, now: now)
        var actions = Self.transmissions(reliable)
        for case .notify(.deliver(let body)) in reliable where isActive {
            actions += received(body)
        }
        return withTimer(actions)
    }

    private mutating func timerFired(now: Instant) -> [FileClientAction] {
        guard isActive else { return [] }
        if let idleDeadline, now >= idleDeadline {
            return interrupt(.peerSilent(idleTimeout))
        }
        let reliable = endpoint.timerFired(now: now)
        for case .notify(.failed(let failure)) in reliable {
            return interrupt(.linkLost(failure))
        }
        return withTimer(Self.transmissions(reliable))
    }

    private var isActive: Bool { state == .requesting || state == .receiving }

    private mutating func request(now: Instant) -> [FileClientAction] {
        state = .requesting
        idleDeadline = now + idleTimeout
        let body = AppMessageBody.fileRequest(FileRequest(name: name, offset: receivedBytes))
        return withTimer(Self.transmissions(endpoint.send(body, now: now)))
    }

    /// What the reliable flow sends; its timer is folded into the client's (``withTimer(_:)``),
    /// its deliveries and failure are the client's to interpret.
    private static func transmissions(_ reliable: [ReliableAction]) -> [FileClientAction] {
        reliable.compactMap { $0.transmission.map { .transmit($0) } }
    }

    /// One timer: the earlier of the retransmission timer and the idle deadline, while the
    /// transfer is under way.
    private func withTimer(_ actions: [FileClientAction]) -> [FileClientAction] {
        var result = actions.filter {
            switch $0 {
            case .arm, .cancel: false
            default: true
            }
        }
        guard isActive else { return result }
        let deadlines = [endpoint.sender.timerDeadline, idleDeadline].compactMap { $0 }
        result.append(deadlines.min().map { .arm(.transfer, at: $0) } ?? .cancel(.transfer))
        return result
    }

    private mutating func received(_ body: AppMessageBody) -> [FileClientAction] {
        switch body {
        case .fileHeader(let announced):
            if let header, header.size != announced.size || header.sha256 != announced.sha256 {
                return interrupt(.fileChanged)
            }
            header = announced
            state = .receiving
            return [.notify(.header(announced))]
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
            return [.notify(.progress(bytes: receivedBytes, fraction: fraction))]
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
            return [.notify(.completed(result))]
        case .fileError(let refusal):
            state = .refused(refusal)
            idleDeadline = nil
            return [.cancel(.transfer), .notify(.refused(refusal))]
        default:
            return []
        }
    }

    private mutating func interrupt(_ reason: FileTransferInterruption) -> [FileClientAction] {
        state = .interrupted(reason)
        idleDeadline = nil
        return [.cancel(.transfer), .notify(.interrupted(reason, receivedBytes: receivedBytes))]
    }
}

extension FileClient: ProtocolMachine {
    /// The file service draws no randomness.
    public mutating func handle(
        _ event: FileClientEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [FileClientAction] {
        handle(event, now: now)
    }

    public static func timerEvent(_ timer: FileClientTimer) -> FileClientEvent { .timerFired }
}

/// What the owner feeds a ``FileClient``.
public enum FileClientEvent: Hashable, Sendable {
    /// Send the request for the whole file.
    case start
    /// After an interruption: a new connection, asking for the file from the octets held.
    case resume
    /// The driver knows the link is gone (the data path was torn down): stop, keep what arrived.
    case linkDropped
    /// A message arrived from the server.
    case received(AppMessage)
    case timerFired
}

/// What a ``FileClient`` asks its driver to do; it reports ``FileTransferEvent``s.
public typealias FileClientAction = MachineAction<AppMessage, FileClientTimer, FileTransferEvent>

/// A client's one timer, whatever its flow: the earlier of the flow's retransmission timer and
/// the idle deadline.
public enum FileClientTimer: Hashable, Sendable {
    case transfer
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
    /// The transfer stopped; what was received is kept and ``FileClientEvent/resume`` continues.
    case interrupted(FileTransferInterruption, receivedBytes: UInt64)
}

/// Why a transfer stopped before the end.
public enum FileTransferInterruption: Hashable, Sendable, CustomStringConvertible {
    /// The reliable flow gave up retransmitting.
    case linkLost(ReliableFailure)
    /// Nothing arrived from the server for this long while the transfer was under way.
    case peerSilent(Interval)
    /// The driver reported the link gone (``FileClientEvent/linkDropped``).
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

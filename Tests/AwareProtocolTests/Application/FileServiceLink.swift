import AwareCore
import AwareProtocol
import AwareWire

/// A ``FileClient`` and a ``FileServer`` on a simulated link under virtual time. `linkUp`
/// decides, when a message would arrive, whether it gets through; `corrupt` may rewrite a
/// message on its way to the client.
struct FileServiceLink {
    struct InFlight {
        var at: Instant
        var order: Int
        var toServer: Bool
        var message: AppMessage
    }

    var client: FileClient
    var server: FileServer
    var delay = Interval.milliseconds(5)
    var linkUp: (FileClient) -> Bool = { _ in true }
    var corrupt: (AppMessage) -> AppMessage = { $0 }
    var now = Instant.zero
    var events: [FileTransferEvent] = []
    var serverActions: [FileServiceAction] = []
    var requests: [FileRequest] = []
    private var clientTimer: Instant?
    private var serverTimers: [UInt16: Instant] = [:]
    private var queue: [InFlight] = []
    private var order = 0

    init(client: FileClient, server: FileServer) {
        self.client = client
        self.server = server
    }

    mutating func start() { apply(client.start(now: now), fromClient: true) }
    mutating func resume() { apply(client.resume(now: now), fromClient: true) }
    mutating func linkDropped() { apply(client.linkDropped(), fromClient: true) }

    /// Runs until nothing is pending, `limit` passes, or `stop` says so after an event.
    mutating func run(limit: Interval = .seconds(3600), stop: (FileClient) -> Bool = { _ in false }) {
        let end = Instant.zero + limit
        while !stop(client) {
            var candidates: [(Instant, Int)] = []
            if let at = clientTimer { candidates.append((at, -1)) }
            for (flowID, at) in serverTimers { candidates.append((at, Int(flowID))) }
            if let next = queue.min(by: { ($0.at, $0.order) < ($1.at, $1.order) }) {
                candidates.append((next.at, -2))
            }
            guard let first = candidates.min(by: { ($0.0, $0.1) < ($1.0, $1.1) }), first.0 <= end else { return }
            now = first.0
            switch first.1 {
            case -1:
                clientTimer = nil
                apply(client.timerFired(now: now), fromClient: true)
            case -2:
                let next = queue.min(by: { ($0.at, $0.order) < ($1.at, $1.order) })!
                queue.removeAll { $0.order == next.order }
                guard linkUp(client) else { continue }
                if next.toServer {
                    apply(server.receive(next.message, now: now), fromClient: false)
                } else {
                    apply(client.receive(next.message, now: now), fromClient: true)
                }
            default:
                let flowID = UInt16(first.1)
                serverTimers[flowID] = nil
                apply(server.timerFired(flowID: flowID, now: now), fromClient: false)
            }
        }
    }

    private mutating func apply(_ actions: [FileServiceAction], fromClient: Bool) {
        if !fromClient { serverActions += actions }
        for action in actions {
            switch action {
            case .transmit(let message):
                if fromClient, case .fileRequest(let request) = message.body, !requests.contains(request) {
                    requests.append(request)
                }
                let delivered = fromClient ? message : corrupt(message)
                queue.append(InFlight(at: now + delay, order: order, toServer: fromClient, message: delivered))
                order += 1
            case .armTimer(let flowID, let at):
                if fromClient { clientTimer = at } else { serverTimers[flowID] = at }
            case .cancelTimer(let flowID):
                if fromClient { clientTimer = nil } else { serverTimers[flowID] = nil }
            case .event(let event):
                events.append(event)
            case .connectionLost:
                break
            }
        }
    }
}

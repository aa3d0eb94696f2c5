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
    var serverActions: [FileServerAction] = []
    var requests: [FileRequest] = []
    private var clientTimer: Instant?
    private var serverTimers: [UInt16: Instant] = [:]
    private var queue: [InFlight] = []
    private var order = 0

    init(client: FileClient, server: FileServer) {
        self.client = client
        self.server = server
    }

    mutating func start() { applyClient(client.handle(.start, now: now)) }
    mutating func resume() { applyClient(client.handle(.resume, now: now)) }
    mutating func linkDropped() { applyClient(client.handle(.linkDropped, now: now)) }

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
                applyClient(client.handle(.timerFired, now: now))
            case -2:
                let next = queue.min(by: { ($0.at, $0.order) < ($1.at, $1.order) })!
                queue.removeAll { $0.order == next.order }
                guard linkUp(client) else { continue }
                if next.toServer {
                    applyServer(server.handle(.received(next.message), now: now))
                } else {
                    applyClient(client.handle(.received(next.message), now: now))
                }
            default:
                let flowID = UInt16(first.1)
                serverTimers[flowID] = nil
                applyServer(server.handle(.timerFired(flowID: flowID), now: now))
            }
        }
    }

    private mutating func applyClient(_ actions: [FileClientAction]) {
        for action in actions {
            switch action {
            case .transmit(let message):
                if case .fileRequest(let request) = message.body, !requests.contains(request) {
                    requests.append(request)
                }
                send(message, toServer: true)
            case .arm(.transfer, let at):
                clientTimer = at
            case .cancel(.transfer):
                clientTimer = nil
            case .notify(let event):
                events.append(event)
            }
        }
    }

    private mutating func applyServer(_ actions: [FileServerAction]) {
        serverActions += actions
        for action in actions {
            switch action {
            case .transmit(let message):
                send(corrupt(message), toServer: false)
            case .arm(.retransmission(let flowID), let at):
                serverTimers[flowID] = at
            case .cancel(.retransmission(let flowID)):
                serverTimers[flowID] = nil
            case .notify(.connectionLost):
                break
            }
        }
    }

    private mutating func send(_ message: AppMessage, toServer: Bool) {
        queue.append(InFlight(at: now + delay, order: order, toServer: toServer, message: message))
        order += 1
    }
}

import AwareProtocol
import AwareRadio
import AwareWire

/// A ``ReliableEndpoint`` driven over an ``AppTransport``: its segments and acks go out on one
/// data path between two ports, its retransmission timer runs on the device's scheduler.
public final class ReliableChannel {
    public let link: DataLinkID
    public let localPort: UInt16
    public let peerPort: UInt16
    public var category: AccessCategory
    private var endpoint: ReliableEndpoint
    private let transport: AppTransport
    private var timer: ScheduledWork?
    /// Bodies in the order the peer sent them.
    public var deliver: ((AppMessageBody) -> Void)?
    /// The flow gave up: the link is gone.
    public var failed: ((ReliableFailure) -> Void)?
    public private(set) var failure: ReliableFailure?

    public init(
        transport: AppTransport,
        link: DataLinkID,
        flowID: UInt16,
        localPort: UInt16,
        peerPort: UInt16,
        category: AccessCategory,
        configuration: ReliableConfiguration = ReliableConfiguration()
    ) {
        self.transport = transport
        self.link = link
        self.localPort = localPort
        self.peerPort = peerPort
        self.category = category
        endpoint = ReliableEndpoint(flowID: flowID, configuration: configuration)
    }

    public var flowID: UInt16 { endpoint.flowID }

    public func send(_ body: AppMessageBody) {
        perform(endpoint.send(body, now: transport.sharedNow))
    }

    /// A message of this flow arrived.
    public func receive(_ message: AppMessage) {
        perform(endpoint.receive(message, now: transport.sharedNow))
    }

    /// Stops the timer; nothing more is sent.
    public func close() {
        if let timer { transport.scheduler.cancel(timer) }
        timer = nil
    }

    private func perform(_ actions: [ReliableAction]) {
        for action in actions {
            switch action {
            case .transmit(let message):
                transport.send(
                    message,
                    on: link,
                    sourcePort: localPort,
                    destinationPort: peerPort,
                    category: category
                )
            case .armTimer(let deadline):
                if let timer { transport.scheduler.cancel(timer) }
                timer = transport.schedule(atShared: deadline) { [weak self] in
                    guard let self else { return }
                    self.timer = nil
                    self.perform(self.endpoint.timerFired(now: self.transport.sharedNow))
                }
            case .cancelTimer:
                if let timer { transport.scheduler.cancel(timer) }
                timer = nil
            case .deliver(let body):
                deliver?(body)
            case .failed(let reason):
                close()
                failure = reason
                failed?(reason)
            }
        }
    }
}

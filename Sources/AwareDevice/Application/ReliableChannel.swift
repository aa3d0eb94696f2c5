import AwareProtocol
import AwareRadio
import AwareWire

/// A ``ReliableEndpoint`` driven over an ``AppTransport``: its segments and acks go out on one
/// data path between two ports, its retransmission timer runs on the device's scheduler, on the
/// clock the stations share (``MachineDriver/Clock/shared``), because segments carry timestamps.
public final class ReliableChannel {
    public let link: DataLinkID
    public let localPort: UInt16
    public let peerPort: UInt16
    public var category: AccessCategory
    private let transport: AppTransport
    private var driver: MachineDriver<ReliableEndpoint>!
    /// Bodies in the order the peer sent them.
    public var deliver: ((AppMessageBody) -> Void)?
    /// The flow gave up: the link is gone.
    public var failed: ((ReliableFailure) -> Void)?

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
        driver = MachineDriver(
            ReliableEndpoint(flowID: flowID, configuration: configuration),
            scheduler: transport.scheduler,
            clock: .shared,
            transmit: { [weak self] message in self?.transmit(message) },
            notify: { [weak self] notification in self?.notified(notification) }
        )
    }

    public var flowID: UInt16 { driver.machine.flowID }

    /// Why the flow gave up, once it has.
    public var failure: ReliableFailure? { driver.machine.sender.failure }

    public func send(_ body: AppMessageBody) {
        driver.handle(.send(body))
    }

    /// A message of this flow arrived.
    public func receive(_ message: AppMessage) {
        driver.handle(.received(message))
    }

    /// Stops the timer; nothing more is sent.
    public func close() {
        driver.stop()
    }

    private func transmit(_ message: AppMessage) {
        transport.send(message, on: link, sourcePort: localPort, destinationPort: peerPort, category: category)
    }

    private func notified(_ notification: ReliableNotification) {
        switch notification {
        case .deliver(let body):
            deliver?(body)
        case .failed(let reason):
            close()
            failed?(reason)
        }
    }
}

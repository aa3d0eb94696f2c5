import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The phone's app on one data path: a control flow to the accessory's service (ping, stream
/// requests, the accessory's report), the datagram streams it receives, with their one-way
/// latency and arrival times, and file transfers. What it measures becomes the phone's
/// ``PerformanceReport``.
public final class PhoneDataSession {
    public let link: NDPLink
    public let category: AccessCategory
    public let servicePort: UInt16
    public let filePort: UInt16?
    private let transport: AppTransport
    private var control: ReliableChannel
    private var nextFlowID: UInt16 = 0x100
    /// Every control message the accessory sent, in order.
    public private(set) var controlMessages: [ControlMessage] = []
    /// Datagram flows received, by flow ID.
    private var flows: [UInt16: DatagramFlow] = [:]
    /// Per flow: arrival time (shared clock) and one-way latency of each datagram delivered.
    public private(set) var arrivals: [UInt16: [Instant]] = [:]
    public private(set) var latencies: [UInt16: [Interval]] = [:]
    /// Per flow: the payload octets of each datagram delivered, in arrival order.
    public private(set) var datagramOctets: [UInt16: [Int]] = [:]
    /// The TIDs the accessory's data frames carried, by TID.
    public private(set) var receivedTIDs: [UInt8: Int] = [:]
    /// The same per datagram flow of the bench's protocol (the control and file flows left
    /// out): one connection of the accessory's app each, bound to one access category
    /// (apple-peer-model.md 1.7), while one data path may carry several.
    public private(set) var flowTIDs: [UInt16: [UInt8: Int]] = [:]
    public private(set) var lastSignalDBm: Int?
    public let establishedAt: Instant
    /// File transfers, with every event each reported. One driver serves every transfer of the
    /// session, on the shared clock: a new transfer takes over the timer of the last one.
    private var fileDriver: MachineDriver<FileClient>?
    public var fileClient: FileClient? { fileDriver?.machine }
    public private(set) var fileEvents: [FileTransferEvent] = []
    /// Called on the scheduler each time part of a file arrives, with the octets received so
    /// far. A test interrupts a transfer at an exact point with it: on a wall-clock air a small
    /// file can arrive whole between two polls of a waiting test.
    public var fileProgress: ((UInt64) -> Void)?
    public private(set) var closed = false

    init(transport: AppTransport, link: NDPLink, category: AccessCategory, servicePort: UInt16, filePort: UInt16?) {
        self.transport = transport
        self.link = link
        self.category = category
        self.servicePort = servicePort
        self.filePort = filePort
        establishedAt = transport.sharedNow
        control = ReliableChannel(
            transport: transport,
            link: link.id,
            flowID: 0x10,
            localPort: AppPorts.phone,
            peerPort: servicePort,
            category: category
        )
        control.deliver = { [weak self] body in self?.controlDelivered(body) }
    }

    /// A UDP datagram that was not a bench message: an accessory's own application traffic.
    public struct PlainDatagram: Hashable, Sendable {
        public var sourcePort: UInt16
        public var destinationPort: UInt16
        public var size: Int
        public var arrival: Instant
        public var tid: UInt8
    }

    /// Plain datagrams received, in order (at most ``IPv6Host/recordLimit``).
    public private(set) var plainDatagrams: [PlainDatagram] = []

    /// Sends `payload` as it is (no bench header) from the phone's app port to the accessory's
    /// `port`: what an app's first datagram to a UDP service is.
    @discardableResult
    public func sendPlain(_ payload: [UInt8], to port: UInt16) -> Bool {
        transport.host.sendUDP(
            payload,
            on: link.id,
            sourcePort: AppPorts.phone,
            destinationPort: port,
            category: category
        )
    }

    func receivedPlain(_ delivery: UDPDelivery) {
        guard !closed, plainDatagrams.count < IPv6Host.recordLimit else { return }
        lastSignalDBm = delivery.info.rssiDBm
        receivedTIDs[delivery.tid, default: 0] += 1
        plainDatagrams.append(
            PlainDatagram(
                sourcePort: delivery.packet.sourcePort,
                destinationPort: delivery.packet.destinationPort,
                size: delivery.packet.payload.count,
                arrival: transport.sharedNow,
                tid: delivery.tid
            )
        )
    }

    /// Sends a control request (reliable, in order).
    public func send(_ message: ControlMessage) {
        control.send(.control(message.wireBytes))
    }

    /// The reliable control flow gave up: the accessory stopped acknowledging.
    public var controlFailure: ReliableFailure? { control.failure }

    private func controlDelivered(_ body: AppMessageBody) {
        guard case .control(let payload) = body, let message = try? ControlMessage(payload: payload) else { return }
        controlMessages.append(message)
    }

    func received(_ datagram: AppDatagram) {
        guard !closed else { return }
        lastSignalDBm = datagram.info.rssiDBm
        receivedTIDs[datagram.tid, default: 0] += 1
        let message = datagram.message
        if message.flowID == control.flowID {
            control.receive(message)
            return
        }
        if let client = fileClient, message.flowID == client.flowID {
            fileReceived(message)
            return
        }
        guard case .datagram(let payload) = message.body else { return }
        flowTIDs[message.flowID, default: [:]][datagram.tid, default: 0] += 1
        var flow = flows[message.flowID] ?? DatagramFlow(flowID: message.flowID)
        let now = transport.sharedNow
        if case .delivered(_, _, let latency) = flow.receive(message, now: now) {
            arrivals[message.flowID, default: []].append(now)
            latencies[message.flowID, default: []].append(latency)
            datagramOctets[message.flowID, default: []].append(payload.count)
        }
        flows[message.flowID] = flow
    }

    /// What the datagram flow `flowID` counted (lost, late, reordered, duplicates).
    public func statistics(ofFlow flowID: UInt16) -> DatagramStatistics? { flows[flowID]?.statistics }

    public var flowIDs: [UInt16] { flows.keys.sorted() }

    /// The phone's report on flow `flowID` (the measured flow) over `window`, like
    /// `WAPerformanceReport` plus the bench's figures (apple-peer-model.md 1.8).
    public func report(
        flowID: UInt16,
        offered: Int,
        from start: Instant,
        to end: Instant,
        statistics: DataLinkStatistics?
    ) -> PerformanceReport {
        let times = arrivals[flowID] ?? []
        let samples = latencies[flowID] ?? []
        let sizes = datagramOctets[flowID] ?? []
        var kept: [Interval] = []
        var octets = 0
        var delivered = 0
        for (index, time) in times.enumerated() where time >= start && time <= end {
            kept.append(samples[index])
            delivered += 1
            octets += sizes[index]
        }
        let signal = lastSignalDBm ?? statistics?.lastSignalDBm
        let measurement = PerformanceMeasurement(
            rssiDBm: signal,
            phyRateMbps: signal.map { LinkRate.select(signalDBm: Double($0)).megabitsPerSecond },
            dutyCycle: link.schedule.dutyCycle,
            duration: end - start,
            latencies: kept,
            transmitLatencies: statistics?.transmitLatencies ?? [:],
            offeredPackets: offered,
            deliveredPackets: delivered,
            deliveredBytes: UInt64(octets),
            transmittedBytes: UInt64(statistics?.octetsDelivered ?? 0)
        )
        return PerformanceReport(measurement)
    }

    // MARK: - Files

    /// Asks the accessory's file service for `name`; progress and the outcome arrive in
    /// ``fileEvents``. Without a file port (the accessory serves no files) nothing happens.
    public func fetch(_ name: String) {
        let flowID = nextFlowID
        nextFlowID &+= 2
        transfer(FileClient(name: name, flowID: flowID), .start)
    }

    /// Carries on a transfer on this (new) data path from where `previous` stopped.
    public func resume(_ previous: FileClient) {
        transfer(previous, .resume)
    }

    /// Makes `client` the session's file client and feeds it `event`.
    private func transfer(_ client: FileClient, _ event: FileClientEvent) {
        guard let filePort else { return }
        if let fileDriver {
            fileDriver.machine = client
        } else {
            fileDriver = MachineDriver(
                client,
                scheduler: transport.scheduler,
                clock: .shared,
                transmit: { [weak self] message in
                    guard let self else { return }
                    self.transport.send(
                        message,
                        on: self.link.id,
                        sourcePort: AppPorts.phone,
                        destinationPort: filePort,
                        category: self.category
                    )
                },
                notify: { [weak self] event in self?.fileEvents.append(event) }
            )
        }
        fileDriver?.handle(event)
    }

    private func fileReceived(_ message: AppMessage) {
        guard let fileDriver else { return }
        fileDriver.handle(.received(message))
        fileProgress?(fileDriver.machine.receivedBytes)
    }

    /// The link went away: the file client keeps what it has for a resume.
    func linkDropped() {
        fileDriver?.handle(.linkDropped)
        close()
    }

    func close() {
        closed = true
        control.close()
        fileDriver?.stop()
    }
}

import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The accessory's application on one data path, as its profile describes it: the drone's
/// telemetry stream at the profile's rate, answers on the control flow (ping, streams on
/// request, its performance report) and, on a camera, the file service.
final class AccessoryAppSession {
    unowned let service: AccessoryDataService
    let link: NDPLink
    let serviceProfile: ServiceProfile?
    let establishedAt: Instant
    private var telemetry: DatagramFlow?
    private var telemetryTimer: ScheduledWork?
    /// The streams the phone asked for, by flow ID: each one a connection of the phone's app,
    /// in the access category it asked for (several may share the data path, apple-peer-model.md
    /// 1.7). Their frames are made by the data path as they go (``NANDevice/offerDataStream``);
    /// each timer sends Stream Stopped after its stream's last one.
    private var streams: [UInt16: (id: DataStreamID, count: Int, category: AccessCategory, timer: ScheduledWork)] =
        [:]
    /// At most this many streams at once; the oldest gives way to a new one beyond it.
    static let concurrentStreams = 4
    private var nextStreamFlow: UInt16 = 2
    private var controls: [UInt16: ReliableChannel] = [:]
    /// The file service, on a camera: its connections' timers run on the shared clock, like the
    /// control flows'.
    private var fileServer: MachineDriver<FileServer>?
    private var filePeerPorts: [UInt16: UInt16] = [:]
    private var closed = false
    /// Datagrams this session's telemetry handed to the data path.
    private(set) var datagramsOffered = 0

    init(service: AccessoryDataService, link: NDPLink, serviceProfile: ServiceProfile?) {
        self.service = service
        self.link = link
        self.serviceProfile = serviceProfile
        establishedAt = service.transport.sharedNow
        // The file service's transfers are the bench's protocol: without it there is none.
        if let files = service.profile.app?.fileService, service.profile.app?.benchProtocol == true {
            fileServer = MachineDriver(
                FileServer(files: files.files.map { FileContent(name: $0.name, size: UInt64($0.sizeBytes)) }),
                scheduler: service.transport.scheduler,
                clock: .shared,
                transmit: { [weak self] message in self?.transmitFile(message) },
                // A lost connection needs nothing more: its client comes back on a new flow.
                notify: { _ in }
            )
        }
    }

    var transport: AppTransport { service.transport }
    /// The port the Data Path Response named (``ServiceProfile/transportInfo(faults:)``).
    var appPort: UInt16 { serviceProfile?.dataPathPort ?? AppPorts.defaultService }
    var filePort: UInt16? {
        guard let files = service.profile.app?.fileService else { return nil }
        return UInt16(clamping: files.port ?? serviceProfile?.datapath?.port ?? Int(AppPorts.defaultService))
    }

    /// The access category of the accessory's own traffic: its service class in its mode.
    var category: AccessCategory {
        (service.profile.performance.serviceClass(for: service.mode) ?? .bestEffort).accessCategory
    }

    /// An unreliable datagram still queued this long after it was sent is dropped, not sent
    /// late: telemetry that old is worthless. Twice the longest gap of the bulk schedule.
    static let datagramDeadline = Interval.milliseconds(200)

    /// The telemetry the profile describes on this data path's service, if any.
    private var telemetryApp: TelemetryApp? {
        guard let app = service.profile.app?.telemetry, serviceProfile?.name == app.service || serviceProfile == nil
        else { return nil }
        return app
    }

    /// With the bench's protocol, telemetry starts with the data path, as bench messages to the
    /// phone's app port. Without it, it starts when the phone first sends a datagram to the
    /// telemetry port, and goes to the port that datagram came from, as plain payloads: what a
    /// UDP server does for a client (``rawReceived(_:)``).
    func start() {
        guard let app = telemetryApp, service.transport.speaksBenchProtocol else { return }
        telemetry = DatagramFlow(flowID: 1)
        let period = Interval.seconds(1 / max(app.rateHz, 0.001))
        let payload = [UInt8](repeating: 0x54, count: max(0, app.payloadBytes))
        scheduleTelemetry(period: period, payload: payload)
    }

    /// The port plain telemetry goes to: the source port of the phone's first datagram.
    private var plainTelemetryPort: UInt16?

    /// A datagram on a data path without the bench's protocol: the first one to the telemetry
    /// port starts the telemetry to its sender.
    func rawReceived(_ delivery: UDPDelivery) {
        guard !closed, let app = telemetryApp,
            delivery.packet.destinationPort == UInt16(clamping: app.port ?? Int(appPort))
        else { return }
        let started = plainTelemetryPort != nil
        plainTelemetryPort = delivery.packet.sourcePort
        guard !started else { return }
        let period = Interval.seconds(1 / max(app.rateHz, 0.001))
        let payload = [UInt8](repeating: 0x54, count: max(0, app.payloadBytes))
        schedulePlainTelemetry(period: period, payload: payload)
    }

    private func schedulePlainTelemetry(period: Interval, payload: [UInt8]) {
        telemetryTimer = transport.scheduler.schedule(after: period) { [weak self] in
            guard let self, !self.closed, let port = self.plainTelemetryPort else { return }
            self.datagramsOffered += 1
            self.transport.host.sendUDP(
                payload,
                on: self.link.id,
                sourcePort: UInt16(clamping: self.telemetryApp?.port ?? Int(self.appPort)),
                destinationPort: port,
                category: self.category,
                deadline: self.transport.scheduler.now + Self.datagramDeadline
            )
            self.schedulePlainTelemetry(period: period, payload: payload)
        }
    }

    private func scheduleTelemetry(period: Interval, payload: [UInt8]) {
        telemetryTimer = transport.scheduler.schedule(after: period) { [weak self] in
            guard let self, !self.closed, var flow = self.telemetry else { return }
            let message = flow.send(payload, now: self.transport.sharedNow)
            self.telemetry = flow
            self.sendDatagram(message)
            self.scheduleTelemetry(period: period, payload: payload)
        }
    }

    private func sendDatagram(_ message: AppMessage, category: AccessCategory? = nil) {
        datagramsOffered += 1
        transport.send(
            message,
            on: link.id,
            sourcePort: appPort,
            destinationPort: AppPorts.phone,
            category: category ?? self.category,
            deadline: transport.scheduler.now + Self.datagramDeadline
        )
    }

    func close() {
        closed = true
        if let telemetryTimer { transport.scheduler.cancel(telemetryTimer) }
        fileServer?.stop()
        for stream in streams.values {
            transport.scheduler.cancel(stream.timer)
            service.device.cancelDataStream(stream.id)
        }
        for channel in controls.values { channel.close() }
        controls.removeAll()
        streams.removeAll()
    }

    // MARK: - Receiving

    func received(_ datagram: AppDatagram) {
        guard !closed else { return }
        if let filePort, datagram.destinationPort == filePort,
            isFileMessage(datagram.message) || fileFlows.contains(datagram.message.flowID)
        {
            fileReceived(datagram)
            return
        }
        guard datagram.destinationPort == appPort else { return }
        switch datagram.message.kind {
        case .segment, .control, .ack:
            let flowID = datagram.message.flowID
            let channel =
                controls[flowID]
                ?? {
                    let created = ReliableChannel(
                        transport: transport,
                        link: link.id,
                        flowID: flowID,
                        localPort: appPort,
                        peerPort: datagram.sourcePort,
                        category: category
                    )
                    created.deliver = { [weak self, weak created] body in
                        guard let self, let created else { return }
                        self.controlReceived(body, on: created)
                    }
                    controls[flowID] = created
                    return created
                }()
            channel.receive(datagram.message)
        default:
            break
        }
    }

    // MARK: - Control

    private func controlReceived(_ body: AppMessageBody, on channel: ReliableChannel) {
        let payload: [UInt8]
        switch body {
        case .control(let octets), .segment(let octets): payload = octets
        default: return
        }
        guard let message = try? ControlMessage(payload: payload) else {
            channel.send(.control(ControlMessage.refused("malformed control message").wireBytes))
            return
        }
        switch message {
        case .ping(let token):
            channel.send(.control(ControlMessage.pong(token).wireBytes))
        case .startStream(let request):
            startStream(request, answering: channel)
        case .stopStream:
            stopStream(answering: channel)
        case .reportRequest:
            channel.send(.control(ControlMessage.report(report().json.serialized).wireBytes))
        default:
            channel.send(.control(ControlMessage.refused("not a request").wireBytes))
        }
    }

    private func startStream(_ request: ControlMessage.StreamRequest, answering channel: ReliableChannel) {
        guard request.rateMillihertz > 0, !request.reliable else {
            channel.send(.control(ControlMessage.refused("only datagram streams at a positive rate").wireBytes))
            return
        }
        if streams.count >= Self.concurrentStreams, let oldest = streams.keys.min() {
            if let stream = streams.removeValue(forKey: oldest) {
                transport.scheduler.cancel(stream.timer)
                service.device.cancelDataStream(stream.id)
            }
        }
        let flowID = nextStreamFlow
        nextStreamFlow &+= 1
        var rate = request.rateHz
        if service.faults.contains(.throttledStream), service.mode == .bulk { rate /= 10 }
        let period = Interval.seconds(1 / rate)
        let duration = Interval.milliseconds(Int64(request.durationMilliseconds))
        channel.send(.control(ControlMessage.streamStarted(flowID: flowID).wireBytes))
        var category = request.tid.map { AccessCategory(userPriority: $0) } ?? self.category
        // The fault: every stream in the category of one already running.
        if service.faults.contains(.singleCategoryPerPath), let first = streams.min(by: { $0.key < $1.key }) {
            category = first.value.category
        }
        let payload = [UInt8](repeating: 0x42, count: Int(request.payloadOctets))
        // Datagram k (k = 1, 2, ...) is offered k periods after the request, while before the
        // stream's end; each is made, stamped with the time it was offered, only when the data
        // path is about to send it, and dropped unmade once older than the datagram deadline.
        let count = period.nanoseconds > 0 ? max(0, Int((duration.nanoseconds - 1) / period.nanoseconds)) : 0
        let start = transport.scheduler.now
        let link = link.id
        let port = appPort
        let made = service.device.offerDataStream(
            on: link,
            category: category,
            first: start + period,
            period: period,
            count: count,
            lifetime: Self.datagramDeadline
        ) { [weak self] index, offeredAt in
            guard let self else { return [] }
            let message = AppMessage(
                flowID: flowID,
                sequence: UInt32(truncatingIfNeeded: index),
                sentAt: self.transport.scheduler.sharedTimestamp(of: offeredAt),
                body: .datagram(payload)
            )
            return self.transport.msdu(
                message,
                on: link,
                sourcePort: port,
                destinationPort: AppPorts.phone,
                category: category
            ) ?? []
        }
        guard let made else { return }
        // Stream Stopped goes when the next datagram would have been due.
        let timer = transport.scheduler.schedule(at: start + period * Int64(count + 1)) { [weak self] in
            guard let self, !self.closed, self.streams[flowID]?.id == made else { return }
            self.streams[flowID] = nil
            channel.send(.control(ControlMessage.streamStopped(datagramsSent: UInt32(clamping: count)).wireBytes))
        }
        streams[flowID] = (made, count, category, timer)
    }

    /// Stops every running stream; Stream Stopped counts what they sent together.
    private func stopStream(answering channel: ReliableChannel) {
        var sent = 0
        for stream in streams.values {
            transport.scheduler.cancel(stream.timer)
            sent += service.device.cancelDataStream(stream.id) ?? stream.count
        }
        streams.removeAll()
        channel.send(.control(ControlMessage.streamStopped(datagramsSent: UInt32(clamping: sent)).wireBytes))
    }

    /// The accessory's report on this data path, like the phone's `WAPerformanceReport`
    /// (apple-peer-model.md 1.8) from the sending side: what it offered and what the phone
    /// acknowledged, its transmit latency per access category, the schedule's duty cycle.
    func report() -> PerformanceReport {
        let statistics = service.device.dataLinkStatistics(link.id) ?? DataLinkStatistics()
        let rate = statistics.lastSignalDBm.map { LinkRate.select(signalDBm: Double($0)).megabitsPerSecond }
        let inflate = service.faults.contains(.inflatedReport) ? 2 : 1
        let measurement = PerformanceMeasurement(
            rssiDBm: statistics.lastSignalDBm,
            phyRateMbps: rate,
            dutyCycle: link.schedule.dutyCycle,
            duration: transport.sharedNow - establishedAt,
            transmitLatencies: statistics.transmitLatencies,
            offeredPackets: statistics.framesOffered * inflate,
            deliveredPackets: statistics.framesDelivered * inflate,
            deliveredBytes: UInt64(statistics.octetsDelivered * inflate),
            transmittedBytes: UInt64(statistics.octetsDelivered)
        )
        return PerformanceReport(measurement)
    }

    // MARK: - Files

    private var fileFlows: Set<UInt16> { Set(fileServer?.machine.connectionFlowIDs ?? []) }

    private func isFileMessage(_ message: AppMessage) -> Bool {
        if case .fileRequest = message.body { return true }
        return false
    }

    private func fileReceived(_ datagram: AppDatagram) {
        guard let fileServer else { return }
        var message = datagram.message
        if service.faults.contains(.noFileResume), case .fileRequest(var request) = message.body {
            request.offset = 0
            message.body = .fileRequest(request)
        }
        filePeerPorts[message.flowID] = datagram.sourcePort
        fileServer.handle(.received(message))
    }

    /// A message of the file service, to the port its flow's client sent from.
    private func transmitFile(_ message: AppMessage) {
        guard let port = filePort else { return }
        var message = message
        if service.faults.contains(.corruptFileChunk), case .fileChunk(var chunk) = message.body, chunk.offset == 0,
            !chunk.data.isEmpty
        {
            chunk.data[chunk.data.count / 2] ^= 0x01
            message.body = .fileChunk(chunk)
        }
        transport.send(
            message,
            on: link.id,
            sourcePort: port,
            destinationPort: filePeerPorts[message.flowID] ?? AppPorts.phone,
            category: category
        )
    }
}

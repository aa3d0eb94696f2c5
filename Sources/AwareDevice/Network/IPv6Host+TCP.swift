import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// What became of a TCP probe: the peer's answer to a SYN (RFC 9293 3.5).
public enum TCPProbeResult: Hashable, Sendable {
    case pending
    /// SYN-ACK: something listens on the port. The maximum segment size it announced, if any.
    case open(maximumSegmentSize: UInt16?)
    /// RST: nothing listens there.
    case closed
    /// No answer to ``IPv6Host/synAttempts`` SYNs.
    case noAnswer
}

/// One probe of a peer's TCP port.
public struct TCPProbe: Hashable, Sendable {
    public var port: UInt16
    public var sourcePort: UInt16
    public var result: TCPProbeResult
    public var sentAt: Instant
    public var answeredAt: Instant?
    var initialSequence: UInt32
    var attempts: Int
    var category: AccessCategory
}

/// A connection this host accepted (passive open, RFC 9293 3.10.7.2), by link and ports.
struct TCPConnectionKey: Hashable {
    var link: DataLinkID
    var localPort: UInt16
    var peerPort: UInt16
}

/// The responder's side of one connection: the sequence space of each direction (3.3.1).
struct TCPConnection {
    enum State { case synReceived, established, lastAck }
    var state: State
    /// SND.NXT and RCV.NXT.
    var sendNext: UInt32
    var receiveNext: UInt32
    var category: AccessCategory
}

/// The host's TCP: the connections it accepted and the probes it sent.
struct TCPState {
    var connections: [TCPConnectionKey: TCPConnection] = [:]
    /// Probes by link and source port.
    var probes: [DataLinkID: [UInt16: TCPProbe]] = [:]
    var nextProbePort: UInt16 = 49_300
    var probeTimers: [DataLinkID: [UInt16: ScheduledWork]] = [:]
}

extension IPv6Host {
    /// The MSS the host announces: a 1500-octet MTU less the IPv6 and TCP headers (RFC 9293 3.7.1).
    public static let maximumSegmentSize: UInt16 = 1_440
    /// SYNs a probe sends before it gives up, the first retransmission after
    /// ``synRetransmitInterval`` and each next one after twice as long (RFC 6298 2, 5.5).
    public static let synAttempts = 3
    public static let synRetransmitInterval = Interval.seconds(1)
    /// Connections the host holds at once; a SYN beyond them is refused with RST.
    public static let tcpConnectionLimit = 16
    static let receiveWindow: UInt16 = 65_535

    /// Connections accepted and still open.
    public var openTCPConnections: Int { tcp.connections.count }

    /// The probes sent on `link`, by source port.
    public func tcpProbes(on link: DataLinkID) -> [UInt16: TCPProbe] { tcp.probes[link] ?? [:] }

    /// Probes the peer's TCP `port` on `link`: a SYN (retransmitted), then on SYN-ACK a RST that
    /// ends the half-open connection. Returns the probe's source port (its key in
    /// ``tcpProbes(on:)``); nil when the link is not attached.
    @discardableResult
    public func probeTCP(on link: DataLinkID, port: UInt16, category: AccessCategory = .bestEffort) -> UInt16? {
        guard interfaces[link] != nil else { return nil }
        let sourcePort = tcp.nextProbePort
        tcp.nextProbePort = tcp.nextProbePort >= 65_000 ? 49_300 : tcp.nextProbePort + 1
        tcp.probes[link, default: [:]][sourcePort] = TCPProbe(
            port: port,
            sourcePort: sourcePort,
            result: .pending,
            sentAt: now,
            initialSequence: initialSequenceNumber(),
            attempts: 0,
            category: category
        )
        sendSYN(link, sourcePort, wait: Self.synRetransmitInterval)
        return sourcePort
    }

    private func sendSYN(_ link: DataLinkID, _ sourcePort: UInt16, wait: Interval) {
        guard var probe = tcp.probes[link]?[sourcePort], probe.result == .pending else { return }
        guard probe.attempts < Self.synAttempts else {
            probe.result = .noAnswer
            tcp.probes[link]?[sourcePort] = probe
            return
        }
        probe.attempts += 1
        tcp.probes[link]?[sourcePort] = probe
        sendSegment(
            TCPSegment(
                sourcePort: sourcePort,
                destinationPort: probe.port,
                sequenceNumber: probe.initialSequence,
                flags: .syn,
                window: Self.receiveWindow,
                options: TCPSegment.maximumSegmentSizeOption(Self.maximumSegmentSize)
            ),
            on: link,
            category: probe.category
        )
        let timer = scheduler.schedule(after: wait) { [weak self] in
            self?.sendSYN(link, sourcePort, wait: wait * 2)
        }
        tcp.probeTimers[link, default: [:]][sourcePort] = timer
    }

    /// A random initial sequence number (RFC 9293 3.4.1 asks for one that cannot be guessed;
    /// the host's random source is seeded only in a reproducible simulation).
    private func initialSequenceNumber() -> UInt32 {
        randomBytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A segment from the link's address to its peer.
    private func sendSegment(_ segment: TCPSegment, on link: DataLinkID, category: AccessCategory) {
        guard let interface = interfaces[link] else { return }
        let packet = IPv6Packet(
            trafficClass: DSCP(userPriority: category.tid).trafficClass,
            nextHeader: IPNextHeader.tcp,
            hopLimit: Self.hopLimit,
            source: interface.local,
            destination: interface.peer,
            payload: segment.bytes(source: interface.local, destination: interface.peer)
        )
        if segment.flags.contains(.rst) { counters.tcpResets += 1 }
        send(packet.wireBytes, on: link, category: category)
    }

    /// Ends what the host held on a link that went away.
    func tcpDetach(_ link: DataLinkID) {
        for timer in (tcp.probeTimers.removeValue(forKey: link) ?? [:]).values { scheduler.cancel(timer) }
        for key in tcp.connections.keys where key.link == link { tcp.connections[key] = nil }
    }

    // MARK: - Receiving

    func received(_ segment: TCPSegment, _ arrival: Arrival) {
        let link = arrival.link
        if let probe = tcp.probes[link]?[segment.destinationPort], segment.sourcePort == probe.port {
            probeAnswered(probe, segment, link)
            return
        }
        let key = TCPConnectionKey(link: link, localPort: segment.destinationPort, peerPort: segment.sourcePort)
        if let connection = tcp.connections[key] {
            receivedOnConnection(connection, segment, key, arrival)
            return
        }
        if segment.flags.contains(.syn), !segment.flags.contains(.ack), !segment.flags.contains(.rst),
            listeningTCPPorts.contains(segment.destinationPort)
        {
            accept(segment, key, arrival)
            return
        }
        resetUnknown(segment, link, category: AccessCategory(userPriority: arrival.tid))
    }

    /// A segment for no connection: RFC 9293 3.10.7.1 (CLOSED). A RST is dropped; otherwise the
    /// answer is a RST that the sender will take as acceptable.
    private func resetUnknown(_ segment: TCPSegment, _ link: DataLinkID, category: AccessCategory) {
        guard !segment.flags.contains(.rst) else { return }
        let reset: TCPSegment
        if segment.flags.contains(.ack) {
            reset = TCPSegment(
                sourcePort: segment.destinationPort,
                destinationPort: segment.sourcePort,
                sequenceNumber: segment.acknowledgmentNumber,
                flags: .rst,
                window: 0
            )
        } else {
            reset = TCPSegment(
                sourcePort: segment.destinationPort,
                destinationPort: segment.sourcePort,
                sequenceNumber: 0,
                acknowledgmentNumber: segment.sequenceNumber &+ Self.sequenceLength(of: segment),
                flags: [.rst, .ack],
                window: 0
            )
        }
        sendSegment(reset, on: link, category: category)
    }

    /// SEG.LEN: the payload plus one for SYN and one for FIN (3.3.1).
    static func sequenceLength(of segment: TCPSegment) -> UInt32 {
        UInt32(segment.payload.count) + (segment.flags.contains(.syn) ? 1 : 0) + (segment.flags.contains(.fin) ? 1 : 0)
    }

    private func probeAnswered(_ probe: TCPProbe, _ segment: TCPSegment, _ link: DataLinkID) {
        var probe = probe
        let expectedAck = probe.initialSequence &+ 1
        guard probe.result == .pending else {
            // A late SYN-ACK for a finished probe: the half-open connection is reset again.
            if segment.flags.contains(.syn), segment.flags.contains(.ack) {
                resetProbe(probe, segment, link)
            }
            return
        }
        if segment.flags.contains(.rst) {
            guard segment.flags.contains(.ack), segment.acknowledgmentNumber == expectedAck else { return }
            probe.result = .closed
        } else if segment.flags.contains(.syn), segment.flags.contains(.ack) {
            guard segment.acknowledgmentNumber == expectedAck else { return }
            probe.result = .open(maximumSegmentSize: segment.maximumSegmentSize)
            resetProbe(probe, segment, link)
        } else {
            return
        }
        probe.answeredAt = now
        tcp.probes[link]?[probe.sourcePort] = probe
        if let timer = tcp.probeTimers[link]?.removeValue(forKey: probe.sourcePort) { scheduler.cancel(timer) }
    }

    /// The RST that ends a probe's half-open connection: sequence number = the SYN-ACK's
    /// acknowledgement, so the peer accepts it (3.5.3).
    private func resetProbe(_ probe: TCPProbe, _ synAck: TCPSegment, _ link: DataLinkID) {
        sendSegment(
            TCPSegment(
                sourcePort: probe.sourcePort,
                destinationPort: probe.port,
                sequenceNumber: synAck.acknowledgmentNumber,
                flags: .rst,
                window: 0
            ),
            on: link,
            category: probe.category
        )
    }

    /// A SYN to a listening port: SYN-ACK, and the connection waits for the ACK (3.10.7.2).
    private func accept(_ syn: TCPSegment, _ key: TCPConnectionKey, _ arrival: Arrival) {
        let category = AccessCategory(userPriority: arrival.tid)
        guard tcp.connections.count < Self.tcpConnectionLimit else {
            counters.tcpConnectionsRefused += 1
            resetUnknown(syn, key.link, category: category)
            return
        }
        let initial = initialSequenceNumber()
        let connection = TCPConnection(
            state: .synReceived,
            sendNext: initial &+ 1,
            receiveNext: syn.sequenceNumber &+ 1,
            category: category
        )
        tcp.connections[key] = connection
        sendSynAck(connection, key)
    }

    private func sendSynAck(_ connection: TCPConnection, _ key: TCPConnectionKey) {
        sendSegment(
            TCPSegment(
                sourcePort: key.localPort,
                destinationPort: key.peerPort,
                sequenceNumber: connection.sendNext &- 1,
                acknowledgmentNumber: connection.receiveNext,
                flags: [.syn, .ack],
                window: Self.receiveWindow,
                options: TCPSegment.maximumSegmentSizeOption(Self.maximumSegmentSize)
            ),
            on: key.link,
            category: connection.category
        )
    }

    private func sendAck(_ connection: TCPConnection, _ key: TCPConnectionKey, flags: TCPSegment.Flags = .ack) {
        sendSegment(
            TCPSegment(
                sourcePort: key.localPort,
                destinationPort: key.peerPort,
                sequenceNumber: connection.sendNext,
                acknowledgmentNumber: connection.receiveNext,
                flags: flags,
                window: Self.receiveWindow
            ),
            on: key.link,
            category: connection.category
        )
    }

    /// A segment on an accepted connection. The host takes data in order and discards it
    /// (acknowledging it, as a discard service does, RFC 863), closes when the peer does, and
    /// drops the connection on an acceptable RST.
    private func receivedOnConnection(
        _ connection: TCPConnection,
        _ segment: TCPSegment,
        _ key: TCPConnectionKey,
        _ arrival: Arrival
    ) {
        var connection = connection
        if segment.flags.contains(.rst) {
            // Acceptable only at RCV.NXT (RFC 5961 3.2: a RST elsewhere is ignored here).
            if segment.sequenceNumber == connection.receiveNext { tcp.connections[key] = nil }
            return
        }
        if segment.flags.contains(.syn) {
            // The peer did not hear the SYN-ACK and sent its SYN again: answer it again.
            if connection.state == .synReceived, segment.sequenceNumber &+ 1 == connection.receiveNext {
                sendSynAck(connection, key)
            }
            return
        }
        guard segment.flags.contains(.ack) else { return }
        switch connection.state {
        case .synReceived:
            guard segment.acknowledgmentNumber == connection.sendNext else {
                resetUnknown(segment, key.link, category: connection.category)
                return
            }
            connection.state = .established
            counters.tcpConnectionsAccepted += 1
        case .lastAck:
            if segment.acknowledgmentNumber == connection.sendNext {
                tcp.connections[key] = nil
                return
            }
        case .established:
            break
        }
        var answer = false
        if !segment.payload.isEmpty || segment.flags.contains(.fin) {
            answer = true
            if segment.sequenceNumber == connection.receiveNext {
                connection.receiveNext &+= UInt32(segment.payload.count)
                if segment.flags.contains(.fin), connection.state == .established {
                    connection.receiveNext &+= 1
                    // Passive close: our FIN with the acknowledgement of theirs (3.10.7.4, CLOSE-WAIT
                    // straight to LAST-ACK: the host has nothing more to send).
                    tcp.connections[key] = connection
                    sendAck(connection, key, flags: [.fin, .ack])
                    connection.sendNext &+= 1
                    connection.state = .lastAck
                    tcp.connections[key] = connection
                    return
                }
            }
        }
        tcp.connections[key] = connection
        if answer { sendAck(connection, key) }
    }
}

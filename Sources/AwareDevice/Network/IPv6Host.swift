import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// The device's IPv6 host on its data paths: what a standard stack (the kernel's, lwIP) does on
/// a NAN Data Interface, so that either side can meet one. Each data path is a link with two
/// link-local addresses (RFC 4291 2.5.6): the host resolves its peer with neighbour discovery
/// before sending to it (RFC 4861 7.2) and answers the peer's solicitations, answers and sends
/// ICMPv6 echo (RFC 4443 4), carries UDP for the application (``udpReceiver``, ``AppTransport``),
/// accepts TCP connections on its listening ports and probes a peer's port (RFC 9293).
///
/// A data path is point to point: every frame goes to the peer's NDI whatever the IPv6
/// destination, so a solicitation to the peer's solicited-node multicast address travels in a
/// data frame addressed to its NDI, as on any NDI. The host accepts packets to its own address,
/// its solicited-node multicast address and all-nodes (RFC 4291 2.7.1); others are counted and
/// dropped. Everything runs on the device's scheduler.
public final class IPv6Host: DataReceiver {
    /// One attached data path.
    struct Interface {
        var local: IPv6Address
        var peer: IPv6Address
        /// The local NDI: the link-layer address the host advertises.
        var localNDI: MACAddress
        var neighbor = NeighborEntry()
        /// Packets waiting for the peer to be resolved (RFC 4861 7.2.2), oldest first.
        var waiting: [Outgoing] = []
    }

    /// A packet (its IPv6 octets) to send once the neighbour is known.
    struct Outgoing {
        var packet: [UInt8]
        var category: AccessCategory
        var deadline: Instant?
    }

    /// What carries the host's packets: a NAN device's data paths, or any other link layer.
    public let linkLayer: any DataLinkLayer
    var interfaces: [DataLinkID: Interface] = [:]
    let randomBytes: (Int) -> [UInt8]
    /// Every UDP datagram addressed to this host on an attached data path.
    public var udpReceiver: ((UDPDelivery) -> Void)?
    /// Answer echo requests (on for any host; off only to emulate a stack that does not).
    public var answersEchoRequests = true
    /// A token bucket for echo replies, or nil for none: a rate-limited stack (as Linux limits
    /// ICMP with a rate and a burst) drops the requests it has no token for. A fault hook.
    public var echoReplyLimit: () -> EchoReplyLimit? = { nil }
    /// Tokens left, and when they were counted.
    var echoTokens: (count: Double, at: Instant)?
    /// Answer neighbour solicitations for the host's own address.
    public var answersNeighborSolicitations = true
    /// TCP ports on which the host accepts connections (``IPv6Host+TCP``).
    public var listeningTCPPorts: Set<UInt16> = []
    /// What the host dropped or refused, and what it answered.
    public internal(set) var counters = IPv6HostCounters()
    /// Every neighbour advertisement the peer sent on each data path, in order (at most
    /// ``recordLimit`` per path): the evidence of reachability by neighbour discovery.
    public internal(set) var advertisements: [DataLinkID: [ReceivedAdvertisement]] = [:]
    /// Echo requests this host sent, by data path, in order (at most ``recordLimit`` per path).
    public internal(set) var echoes: [DataLinkID: [EchoExchange]] = [:]
    /// Told of each echo reply matched to a request this host sent (after ``echoes`` has it).
    public var echoReplyObserver: ((DataLinkID, EchoExchange) -> Void)?
    /// This host's echo identifier (RFC 4443 4.1), chosen once.
    public let echoIdentifier: UInt16
    /// TCP state: connections accepted and probes sent (``IPv6Host+TCP``).
    var tcp = TCPState()
    /// Scheduled neighbour-discovery work per data path (retransmissions, reachability expiry).
    var neighborTimers: [DataLinkID: ScheduledWork] = [:]

    /// Records kept per data path, so that a flood cannot grow memory without bound.
    public static let recordLimit = 100_000

    /// `randomBytes` gives the echo identifier, TCP initial sequence numbers and the jitter of
    /// the reachable time: seeded, a run repeats bit for bit.
    public init(linkLayer: any DataLinkLayer, randomBytes: @escaping (Int) -> [UInt8]) {
        self.linkLayer = linkLayer
        self.randomBytes = randomBytes
        let identifier = randomBytes(2)
        echoIdentifier = UInt16(identifier[0]) << 8 | UInt16(identifier[1])
        linkLayer.dataReceiver = self
    }

    /// The host on `device`'s data paths.
    public convenience init(device: NANDevice, randomBytes: @escaping (Int) -> [UInt8]) {
        self.init(linkLayer: device, randomBytes: randomBytes)
    }

    public var scheduler: any EventScheduler { linkLayer.scheduler }
    public var now: Instant { linkLayer.now }

    // MARK: - Data paths

    /// Starts using `link`: own address from `localInterfaceID`, the peer's from what its NDPE
    /// carried, or from its NDI (modified EUI-64, RFC 4291 appendix A) when it carried none.
    public func attach(_ link: DataLinkConfiguration, localInterfaceID: [UInt8]?, peerInterfaceID: [UInt8]?) {
        attach(
            link.id,
            localNDI: link.localNDI,
            peerNDI: link.peerNDI,
            localInterfaceID: localInterfaceID,
            peerInterfaceID: peerInterfaceID
        )
    }

    /// Starts using the link `id` between the interfaces `localNDI` and `peerNDI`.
    public func attach(
        _ id: DataLinkID,
        localNDI: MACAddress,
        peerNDI: MACAddress,
        localInterfaceID: [UInt8]? = nil,
        peerInterfaceID: [UInt8]? = nil
    ) {
        let local =
            localInterfaceID.flatMap { IPv6Address.linkLocal(interfaceIdentifier: $0) }
            ?? IPv6Address.linkLocal(of: localNDI)
        let peer =
            peerInterfaceID.flatMap { IPv6Address.linkLocal(interfaceIdentifier: $0) }
            ?? IPv6Address.linkLocal(of: peerNDI)
        detach(id)
        interfaces[id] = Interface(local: local, peer: peer, localNDI: localNDI)
    }

    /// Stops using `link`: what waited for it is dropped, its connections and probes end.
    public func detach(_ link: DataLinkID) {
        if let timer = neighborTimers.removeValue(forKey: link) { scheduler.cancel(timer) }
        interfaces[link] = nil
        tcpDetach(link)
    }

    public func localAddress(of link: DataLinkID) -> IPv6Address? { interfaces[link]?.local }
    public func peerAddress(of link: DataLinkID) -> IPv6Address? { interfaces[link]?.peer }

    // MARK: - UDP

    /// Sends `payload` to the peer's `destinationPort` once the peer is resolved. Returns false
    /// when the link is not attached or its queue is full.
    @discardableResult
    public func sendUDP(
        _ payload: [UInt8],
        on link: DataLinkID,
        sourcePort: UInt16,
        destinationPort: UInt16,
        category: AccessCategory,
        deadline: Instant? = nil
    ) -> Bool {
        guard let packet = udpPacket(payload, on: link, ports: (sourcePort, destinationPort), category: category)
        else { return false }
        return send(packet.wireBytes, on: link, category: category, deadline: deadline)
    }

    /// The data frame body (LLC/SNAP, IPv6, UDP) that carries `payload` to the peer, for
    /// frames made as they go (``NANDevice/offerDataStream``); nil when the link is not attached.
    /// It does not wait for neighbour discovery: a stream starts after an exchange that resolved it.
    public func udpFrameBody(
        _ payload: [UInt8],
        on link: DataLinkID,
        sourcePort: UInt16,
        destinationPort: UInt16,
        category: AccessCategory
    ) -> [UInt8]? {
        udpPacket(payload, on: link, ports: (sourcePort, destinationPort), category: category).map {
            LLCSNAPHeader.ipv6.wireBytes + $0.wireBytes
        }
    }

    /// A datagram from the link's address to its peer, with the category's DSCP (RFC 8325).
    private func udpPacket(
        _ payload: [UInt8],
        on link: DataLinkID,
        ports: (source: UInt16, destination: UInt16),
        category: AccessCategory
    ) -> IPv6UDPPacket? {
        guard let interface = interfaces[link] else { return nil }
        return IPv6UDPPacket(
            trafficClass: DSCP(userPriority: category.tid).trafficClass,
            source: interface.local,
            destination: interface.peer,
            sourcePort: ports.source,
            destinationPort: ports.destination,
            payload: payload
        )
    }

    // MARK: - Sending

    /// Sends `packet` to the peer of `link`, after resolving it when it is not known
    /// (RFC 4861 7.2.2: the packet waits, at most ``waitingLimit`` per path, the oldest dropped).
    @discardableResult
    func send(_ packet: [UInt8], on link: DataLinkID, category: AccessCategory, deadline: Instant? = nil) -> Bool {
        guard var interface = interfaces[link] else { return false }
        switch interface.neighbor.state {
        case .reachable, .delay, .probe:
            return transmit(packet, on: link, category: category, deadline: deadline)
        case .stale:
            // RFC 4861 7.3.3: a packet to a stale neighbour goes at once and starts reachability
            // confirmation (DELAY, then PROBE).
            let sent = transmit(packet, on: link, category: category, deadline: deadline)
            startDelay(link)
            return sent
        case .none, .incomplete:
            if interface.waiting.count >= Self.waitingLimit {
                interface.waiting.removeFirst()
                counters.droppedWhileResolving += 1
            }
            interface.waiting.append(Outgoing(packet: packet, category: category, deadline: deadline))
            interfaces[link] = interface
            if interface.neighbor.state == .none { startResolving(link) }
            return true
        }
    }

    /// Packets that may wait for one neighbour to be resolved.
    static let waitingLimit = 64

    /// Hands `packet` (IPv6 octets) to the data path as an LLC/SNAP-framed MSDU.
    @discardableResult
    func transmit(_ packet: [UInt8], on link: DataLinkID, category: AccessCategory, deadline: Instant? = nil) -> Bool {
        linkLayer.sendData(LLCSNAPHeader.ipv6.wireBytes + packet, on: link, category: category, deadline: deadline)
    }

    // MARK: - Receiving

    /// An MSDU that arrived on one of the device's data paths.
    public func receive(_ delivery: DataDelivery) {
        guard let interface = interfaces[delivery.link] else { return }
        var reader = WireReader(delivery.payload, structure: "data frame body")
        let octets: [UInt8]
        do throws(WireError) {
            let llc = try LLCSNAPHeader(from: &reader)
            guard llc.etherType == LLCSNAPHeader.etherTypeIPv6 else {
                counters.notIPv6 += 1
                return
            }
            octets = try reader.readBytes(reader.remaining, "IPv6 packet")
        } catch {
            counters.malformed += 1
            return
        }
        // UDP, the application's traffic, is parsed in one pass (header, datagram, checksum):
        // it is nearly every packet of a stream.
        if octets.count > 6, octets[6] == IPNextHeader.udp {
            guard let udp = try? IPv6UDPPacket(wireBytes: octets, structure: IPv6UDPPacket.structureName) else {
                counters.malformed += 1
                return
            }
            guard udp.destination == interface.local else {
                counters.notForUs += 1
                return
            }
            udpReceiver?(UDPDelivery(link: delivery.link, packet: udp, tid: delivery.tid, info: delivery.info))
            return
        }
        guard let packet = try? IPv6Packet(wireBytes: octets, structure: IPv6Packet.structureName) else {
            counters.malformed += 1
            return
        }
        let destination = packet.destination
        guard
            destination == interface.local || destination == interface.local.solicitedNodeMulticast
                || destination == .allNodes
        else {
            counters.notForUs += 1
            return
        }
        let arrival = Arrival(link: delivery.link, packet: packet, tid: delivery.tid, info: delivery.info)
        switch packet.nextHeader {
        case IPNextHeader.icmpv6:
            guard
                let message = try? ICMPv6Message(bytes: packet.payload, source: packet.source, destination: destination)
            else {
                counters.malformed += 1
                return
            }
            received(message, arrival)
        case IPNextHeader.tcp:
            guard destination == interface.local,
                let segment = try? TCPSegment(bytes: packet.payload, source: packet.source, destination: destination)
            else {
                counters.malformed += 1
                return
            }
            received(segment, arrival)
        default:
            counters.unknownNextHeader += 1
        }
    }

    /// A packet as it arrived, with what the data frame said of it.
    struct Arrival {
        var link: DataLinkID
        var packet: IPv6Packet
        var tid: UInt8
        var info: RxInfo
    }

    private func received(_ message: ICMPv6Message, _ arrival: Arrival) {
        switch message {
        case .neighborSolicitation(let solicitation): received(solicitation, arrival)
        case .neighborAdvertisement(let advertisement): received(advertisement, arrival)
        case .echoRequest(let echo): receivedEchoRequest(echo, arrival)
        case .echoReply(let echo): receivedEchoReply(echo, arrival)
        case .other: counters.otherICMPv6 += 1
        }
    }

    /// An ICMPv6 message from the link's own address to `destination`.
    func icmpPacket(
        _ message: ICMPv6Message,
        on link: DataLinkID,
        to destination: IPv6Address,
        trafficClass: UInt8 = 0,
        hopLimit: UInt8 = IPv6UDPPacket.linkLocalHopLimit
    ) -> IPv6Packet? {
        guard let interface = interfaces[link] else { return nil }
        return IPv6Packet(
            trafficClass: trafficClass,
            nextHeader: IPNextHeader.icmpv6,
            hopLimit: hopLimit,
            source: interface.local,
            destination: destination,
            payload: message.bytes(source: interface.local, destination: destination)
        )
    }
}

// MARK: - Companions

/// What an ``IPv6Host`` sends through and hears from: a NAN device's data paths
/// (``NANDevice``), or, in a test, a TAP interface in front of the kernel's own IPv6 stack. Each
/// MSDU is an LLC/SNAP header and a packet; received ones go to ``dataReceiver``, on
/// ``scheduler``.
public protocol DataLinkLayer: AnyObject {
    var scheduler: any EventScheduler { get }
    var now: Instant { get }
    var dataReceiver: (any DataReceiver)? { get set }
    @discardableResult
    func sendData(_ payload: [UInt8], on id: DataLinkID, category: AccessCategory, deadline: Instant?) -> Bool
}

extension NANDevice: DataLinkLayer {}

/// How many echo replies a rate-limited host sends: `perSecond` sustained, `burst` at once.
public struct EchoReplyLimit: Hashable, Sendable {
    public var perSecond: Double
    public var burst: Int

    public init(perSecond: Double, burst: Int) {
        self.perSecond = perSecond
        self.burst = burst
    }
}

/// A UDP datagram that arrived for this host on a data path.
public struct UDPDelivery: Hashable, Sendable {
    public var link: DataLinkID
    public var packet: IPv6UDPPacket
    /// The TID of the QoS data frame that carried it: the sender's access category.
    public var tid: UInt8
    public var info: RxInfo
}

/// What an ``IPv6Host`` dropped, refused or answered, for logs and tests.
public struct IPv6HostCounters: Hashable, Sendable {
    /// Frame bodies that were not LLC/SNAP + IPv6, or packets that did not parse or whose
    /// checksum was wrong.
    public var malformed = 0
    public var notIPv6 = 0
    /// Packets to an address that is not this host's (nor its multicast groups).
    public var notForUs = 0
    public var unknownNextHeader = 0
    public var otherICMPv6 = 0
    /// Neighbour discovery messages that failed the checks of RFC 4861 7.1.
    public var invalidNeighborDiscovery = 0
    public var solicitationsAnswered = 0
    public var echoRequestsAnswered = 0
    /// Echo replies that matched no request this host sent.
    public var unexpectedEchoReplies = 0
    /// Packets dropped while their neighbour was being resolved (the queue was full, or
    /// resolution failed).
    public var droppedWhileResolving = 0
    /// Neighbours that did not answer ``IPv6Host/maxSolicitations`` solicitations.
    public var resolutionFailures = 0
    public var tcpResets = 0
    public var tcpConnectionsAccepted = 0
    /// Connection attempts refused because ``IPv6Host/tcpConnectionLimit`` were open.
    public var tcpConnectionsRefused = 0
}

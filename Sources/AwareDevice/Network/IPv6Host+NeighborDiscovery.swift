import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// What the host knows of its peer's link-layer address on one data path (RFC 4861 7.3.2).
public enum NeighborState: String, Hashable, Sendable {
    /// Nothing yet: the first packet to send starts resolution.
    case none
    /// A solicitation is out and no advertisement has come back.
    case incomplete
    /// The peer advertised itself in answer to a solicitation within ``IPv6Host/reachableTime``.
    case reachable
    /// The address is known but not confirmed lately (learnt from the peer's own solicitation,
    /// or a confirmation expired).
    case stale
    /// A packet went to a stale neighbour: confirmation may still come from elsewhere for
    /// ``IPv6Host/delayFirstProbeTime``, then the host probes.
    case delay
    /// Unicast solicitations confirm the neighbour.
    case probe
}

/// One entry of the neighbour cache: the state and the peer's link-layer address.
struct NeighborEntry {
    var state = NeighborState.none
    var linkLayerAddress: MACAddress?
    /// Solicitations sent since the last confirmation.
    var solicitations = 0
}

/// A neighbour advertisement the peer sent, and when it arrived.
public struct ReceivedAdvertisement: Hashable, Sendable {
    public var advertisement: NeighborAdvertisement
    public var source: IPv6Address
    public var destination: IPv6Address
    public var receivedAt: Instant
}

extension IPv6Host {
    /// RFC 4861 10: RetransTimer, MAX_MULTICAST_SOLICIT / MAX_UNICAST_SOLICIT, BaseReachableTime.
    public static let retransmitInterval = Interval.milliseconds(1_000)
    public static let maxSolicitations = 3
    public static let baseReachableTime = Interval.seconds(30)
    public static let delayFirstProbeTime = Interval.seconds(5)

    /// The peer's state on `link`; nil when the link is not attached.
    public func neighborState(of link: DataLinkID) -> NeighborState? { interfaces[link]?.neighbor.state }

    /// The peer's link-layer address as neighbour discovery learnt it.
    public func neighborLinkLayerAddress(of link: DataLinkID) -> MACAddress? {
        interfaces[link]?.neighbor.linkLayerAddress
    }

    /// Resolves the peer of `link` now, whether or not anything waits to be sent (a test asks
    /// this of the accessory before any traffic). A reachable peer is left alone; a stale one is
    /// probed. false when the link is not attached.
    @discardableResult
    public func resolveNeighbor(on link: DataLinkID) -> Bool {
        guard let state = interfaces[link]?.neighbor.state else { return false }
        switch state {
        case .none: startResolving(link)
        case .stale, .delay: startProbing(link)
        case .incomplete, .reachable, .probe: break
        }
        return true
    }

    /// Multicast solicitations to the peer's solicited-node address (RFC 4861 7.2.2).
    func startResolving(_ link: DataLinkID) {
        guard var interface = interfaces[link] else { return }
        interface.neighbor.state = .incomplete
        interface.neighbor.solicitations = 0
        interfaces[link] = interface
        solicit(link)
    }

    /// A packet went to a stale neighbour (RFC 4861 7.3.3): DELAY, then PROBE unless the
    /// neighbour confirmed itself meanwhile.
    func startDelay(_ link: DataLinkID) {
        guard var interface = interfaces[link], interface.neighbor.state == .stale else { return }
        interface.neighbor.state = .delay
        interfaces[link] = interface
        setNeighborTimer(link, after: Self.delayFirstProbeTime) { [weak self] in
            guard let self, self.interfaces[link]?.neighbor.state == .delay else { return }
            self.startProbing(link)
        }
    }

    /// Unicast solicitations to the peer's own address (RFC 4861 7.3.3, PROBE).
    func startProbing(_ link: DataLinkID) {
        guard var interface = interfaces[link], interface.neighbor.state != .probe else { return }
        interface.neighbor.state = .probe
        interface.neighbor.solicitations = 0
        interfaces[link] = interface
        solicit(link)
    }

    /// Sends one solicitation and arms the retransmission; after ``maxSolicitations`` without an
    /// answer the neighbour is unreachable: the entry goes and what waited for it is dropped.
    private func solicit(_ link: DataLinkID) {
        guard var interface = interfaces[link] else { return }
        guard interface.neighbor.solicitations < Self.maxSolicitations else {
            counters.resolutionFailures += 1
            counters.droppedWhileResolving += interface.waiting.count
            interface.waiting.removeAll()
            interface.neighbor = NeighborEntry()
            interfaces[link] = interface
            return
        }
        interface.neighbor.solicitations += 1
        interfaces[link] = interface
        let multicast = interface.neighbor.state == .incomplete
        let destination = multicast ? interface.peer.solicitedNodeMulticast : interface.peer
        let solicitation = NeighborSolicitation(
            target: interface.peer,
            options: [.sourceLinkLayerAddress(interface.localNDI)]
        )
        if let packet = icmpPacket(.neighborSolicitation(solicitation), on: link, to: destination) {
            // Neighbour discovery is network control: the voice queue, ahead of the data it unblocks.
            transmit(packet.wireBytes, on: link, category: .voice)
        }
        setNeighborTimer(link, after: Self.retransmitInterval) { [weak self] in self?.solicit(link) }
    }

    private func setNeighborTimer(_ link: DataLinkID, after interval: Interval, _ work: @escaping () -> Void) {
        if let timer = neighborTimers.removeValue(forKey: link) { scheduler.cancel(timer) }
        neighborTimers[link] = scheduler.schedule(after: interval, work)
    }

    /// ReachableTime: uniformly between 0.5 and 1.5 x BaseReachableTime (RFC 4861 6.3.2).
    private var reachableTime: Interval {
        let octets = randomBytes(2)
        let fraction = Double(UInt16(octets[0]) << 8 | UInt16(octets[1])) / 65_535
        return Interval.seconds(Self.baseReachableTime.seconds * (0.5 + fraction))
    }

    /// A solicitation from the peer (RFC 4861 7.1.1 checks, then 7.2.3 and 7.2.4).
    func received(_ solicitation: NeighborSolicitation, _ arrival: Arrival) {
        let packet = arrival.packet
        let fromUnspecified = packet.source.isUnspecified
        guard packet.hopLimit == 255, !solicitation.target.isMulticast,
            !fromUnspecified
                || (packet.destination.isMulticast && solicitation.sourceLinkLayerAddress == nil)
        else {
            counters.invalidNeighborDiscovery += 1
            return
        }
        guard var interface = interfaces[arrival.link] else { return }
        if !fromUnspecified, let address = solicitation.sourceLinkLayerAddress {
            learn(address, on: arrival.link, &interface)
        }
        interfaces[arrival.link] = interface
        guard solicitation.target == interface.local, answersNeighborSolicitations else { return }
        // A solicitation from the unspecified address is duplicate address detection: the answer
        // goes to all-nodes and is not solicited (7.2.4).
        let advertisement = NeighborAdvertisement(
            solicited: !fromUnspecified,
            override: true,
            target: interface.local,
            options: [.targetLinkLayerAddress(interface.localNDI)]
        )
        let destination = fromUnspecified ? IPv6Address.allNodes : packet.source
        if let answer = icmpPacket(.neighborAdvertisement(advertisement), on: arrival.link, to: destination) {
            counters.solicitationsAnswered += 1
            transmit(answer.wireBytes, on: arrival.link, category: .voice)
        }
        flushWaiting(arrival.link)
    }

    /// The link-layer address a solicitation carried: a new or changed one makes the entry
    /// stale (7.2.3); an entry waiting for resolution can send now.
    private func learn(_ address: MACAddress, on link: DataLinkID, _ interface: inout Interface) {
        let entry = interface.neighbor
        guard entry.linkLayerAddress != address || entry.state == .none || entry.state == .incomplete else { return }
        if entry.state == .incomplete || entry.state == .probe, let timer = neighborTimers.removeValue(forKey: link) {
            scheduler.cancel(timer)
        }
        interface.neighbor = NeighborEntry(state: .stale, linkLayerAddress: address)
    }

    /// An advertisement from the peer (RFC 4861 7.1.2 checks, then 7.2.5).
    func received(_ advertisement: NeighborAdvertisement, _ arrival: Arrival) {
        let packet = arrival.packet
        guard packet.hopLimit == 255, !advertisement.target.isMulticast,
            !(packet.destination.isMulticast && advertisement.solicited)
        else {
            counters.invalidNeighborDiscovery += 1
            return
        }
        if advertisements[arrival.link, default: []].count < Self.recordLimit {
            advertisements[arrival.link, default: []].append(
                ReceivedAdvertisement(
                    advertisement: advertisement,
                    source: packet.source,
                    destination: packet.destination,
                    receivedAt: now
                )
            )
        }
        guard var interface = interfaces[arrival.link], advertisement.target == interface.peer else { return }
        var entry = interface.neighbor
        switch entry.state {
        case .none:
            // Unsolicited news of a neighbour the host has no entry for: nothing to update (7.2.5).
            return
        case .incomplete:
            // Without a Target Link-Layer Address the advertisement is useless here (7.2.5).
            guard let address = advertisement.targetLinkLayerAddress else { return }
            entry.linkLayerAddress = address
            entry.state = advertisement.solicited ? .reachable : .stale
        case .reachable, .stale, .delay, .probe:
            let address = advertisement.targetLinkLayerAddress
            let changed = address != nil && address != entry.linkLayerAddress
            if changed && !advertisement.override {
                // A different address without Override: keep ours, and a reachable one goes stale.
                if entry.state == .reachable { entry.state = .stale }
            } else {
                if let address { entry.linkLayerAddress = address }
                if advertisement.solicited {
                    entry.state = .reachable
                } else if changed {
                    entry.state = .stale
                }
            }
        }
        entry.solicitations = 0
        interface.neighbor = entry
        interfaces[arrival.link] = interface
        if entry.state == .reachable {
            let link = arrival.link
            setNeighborTimer(link, after: reachableTime) { [weak self] in self?.expire(link) }
        } else if let timer = neighborTimers.removeValue(forKey: arrival.link) {
            scheduler.cancel(timer)
        }
        flushWaiting(arrival.link)
    }

    /// ReachableTime passed without a confirmation: the neighbour is stale (7.3.3).
    private func expire(_ link: DataLinkID) {
        guard var interface = interfaces[link], interface.neighbor.state == .reachable else { return }
        interface.neighbor.state = .stale
        interfaces[link] = interface
        neighborTimers[link] = nil
    }

    /// Sends what waited for the neighbour, once its address is known.
    private func flushWaiting(_ link: DataLinkID) {
        guard var interface = interfaces[link], interface.neighbor.linkLayerAddress != nil,
            interface.neighbor.state != .incomplete, !interface.waiting.isEmpty
        else { return }
        let waiting = interface.waiting
        interface.waiting.removeAll()
        interfaces[link] = interface
        for outgoing in waiting where outgoing.deadline.map({ $0 > now }) ?? true {
            transmit(outgoing.packet, on: link, category: outgoing.category, deadline: outgoing.deadline)
        }
    }
}

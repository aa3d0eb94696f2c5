import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

@testable import AwareDevice

/// The IPv6 host on a real data path between two devices on the simulated air: neighbour
/// discovery before the first packet (RFC 4861 7.2), echo (RFC 4443 4), TCP probes and an
/// accepted connection (RFC 9293). What each side sent is read from the octets the other side's
/// data path delivered, against offsets and values worked out from the RFCs' layouts.
@Suite struct IPv6HostTests {
    let support = DataPathDeviceTests()

    /// Hands every delivery to the host after keeping it.
    final class Recorder: DataReceiver {
        let host: IPv6Host
        var deliveries: [(delivery: DataDelivery, time: Instant)] = []
        /// Keep TCP from the host, as a raw socket's owner would keep its kernel from answering
        /// segments it crafted the connection for.
        var keepsTCP = false
        init(_ host: IPv6Host) {
            self.host = host
            host.linkLayer.dataReceiver = self
        }
        func receive(_ delivery: DataDelivery) {
            deliveries.append((delivery, host.now))
            if keepsTCP, delivery.payload.count > 14, delivery.payload[8 + 6] == 6 { return }
            host.receive(delivery)
        }
        /// The IPv6 packets delivered (after the 8-octet LLC/SNAP header).
        var packets: [[UInt8]] { deliveries.map { Array($0.delivery.payload.dropFirst(8)) } }
        /// Deliveries carrying ICMPv6 of `type` (Next Header at octet 6, the type at octet 40).
        func icmp(_ type: UInt8) -> [(packet: [UInt8], time: Instant)] {
            deliveries.compactMap { entry in
                let packet = Array(entry.delivery.payload.dropFirst(8))
                guard packet.count > 40, packet[6] == 58, packet[40] == type else { return nil }
                return (packet, entry.time)
            }
        }
    }

    struct Hosts {
        let bench: DataPathDeviceTests.Bench
        let phone: IPv6Host
        let accessory: IPv6Host
        let phoneRecorder: Recorder
        let accessoryRecorder: Recorder
        let link: DataLinkID
        let accessoryLink: DataLinkID
        let phoneNDI: MACAddress
        let accessoryNDI: MACAddress

        func run(_ interval: Interval) { bench.air.virtualScheduler.run(for: interval) }
    }

    func hosts(seed: UInt64, mode: PerformanceMode = .realtime) throws -> Hosts {
        let bench = try support.makeBench(seed: seed, availability: mode)
        support.request(bench, mode: mode, security: .pmk(DataPathDeviceTests.pmk, suite: .ncsSK128))
        bench.air.virtualScheduler.run(for: .seconds(5))
        let phoneLink = try #require(bench.phone.dataLinks.first)
        let accessoryLink = try #require(bench.accessory.dataLinks.first)
        var generator = SeededGenerator(seed: seed)
        let random: (Int) -> [UInt8] = { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let phone = IPv6Host(device: bench.phone, randomBytes: random)
        let accessory = IPv6Host(device: bench.accessory, randomBytes: random)
        phone.attach(phoneLink, localInterfaceID: nil, peerInterfaceID: nil)
        accessory.attach(accessoryLink, localInterfaceID: nil, peerInterfaceID: nil)
        return Hosts(
            bench: bench,
            phone: phone,
            accessory: accessory,
            phoneRecorder: Recorder(phone),
            accessoryRecorder: Recorder(accessory),
            link: phoneLink.id,
            accessoryLink: accessoryLink.id,
            phoneNDI: phoneLink.localNDI,
            accessoryNDI: accessoryLink.localNDI
        )
    }

    /// fe80:: + the modified EUI-64 of `mac` (RFC 4291 appendix A), written out.
    static func linkLocal(_ mac: MACAddress) -> [UInt8] {
        let o = mac.octets
        return [0xFE, 0x80, 0, 0, 0, 0, 0, 0, o[0] ^ 0x02, o[1], o[2], 0xFF, 0xFE, o[3], o[4], o[5]]
    }

    @Test func theFirstEchoWaitsForNeighbourDiscoveryAndComesBack() throws {
        let hosts = try hosts(seed: 61)
        #expect(hosts.phone.sendEchoRequest(on: hosts.link, sequence: 1, data: Array("WA".utf8)))
        #expect(hosts.phone.neighborState(of: hosts.link) == .incomplete)
        hosts.run(.seconds(2))

        // The accessory's first delivery is the phone's solicitation: Next Header 58, Hop Limit
        // 255, from the phone's link-local address to the solicited-node address of the
        // accessory's (ff02::1:ff + its last three octets), type 135, the target the accessory's
        // address, then a Source Link-Layer Address option (1, length 1) with the phone's NDI.
        let first = try #require(hosts.accessoryRecorder.packets.first)
        let ndi = hosts.accessoryNDI.octets
        #expect(first[6] == 58)
        #expect(first[7] == 255)
        #expect(Array(first[8..<24]) == Self.linkLocal(hosts.phoneNDI))
        #expect(Array(first[24..<40]) == [0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xFF, ndi[3], ndi[4], ndi[5]])
        #expect(first[40] == 135 && first[41] == 0)
        #expect(Array(first[48..<64]) == Self.linkLocal(hosts.accessoryNDI))
        #expect(Array(first[64..<72]) == [1, 1] + hosts.phoneNDI.octets)

        // The answer: a solicited advertisement (type 136, S and O set: 0x60) naming the
        // accessory's NDI, back to the phone's own address.
        let advertisement = try #require(hosts.phoneRecorder.icmp(136).first?.packet)
        #expect(Array(advertisement[24..<40]) == Self.linkLocal(hosts.phoneNDI))
        #expect(advertisement[7] == 255)
        #expect(advertisement[44] == 0x60)
        #expect(Array(advertisement[48..<64]) == Self.linkLocal(hosts.accessoryNDI))
        #expect(Array(advertisement[64..<72]) == [2, 1] + hosts.accessoryNDI.octets)
        #expect(hosts.phone.neighborState(of: hosts.link) == .reachable)
        #expect(hosts.phone.neighborLinkLayerAddress(of: hosts.link) == hosts.accessoryNDI)

        // Then the echo that waited, and its reply with the same data.
        let request = try #require(hosts.accessoryRecorder.icmp(128).first?.packet)
        #expect(request[7] == 64)
        #expect(Array(request.suffix(2)) == Array("WA".utf8))
        let exchange = try #require(hosts.phone.echoes[hosts.link]?.first)
        #expect(exchange.replyDataMatched == true)
        #expect(try #require(exchange.roundTrip) > .zero)
        #expect(hosts.accessory.counters.solicitationsAnswered == 1)
        #expect(hosts.accessory.counters.echoRequestsAnswered == 1)
        // The accessory learnt the phone's address from the solicitation (RFC 4861 7.2.3): its
        // reply needed no solicitation of its own, and the entry waits in DELAY (7.3.3).
        #expect(hosts.phoneRecorder.icmp(135).isEmpty)
        #expect(hosts.accessory.neighborState(of: hosts.accessoryLink) == .delay)
        // Five seconds on, nothing confirmed it: a unicast probe, answered.
        hosts.run(.seconds(6))
        let probe = try #require(hosts.phoneRecorder.icmp(135).first?.packet)
        #expect(Array(probe[24..<40]) == Self.linkLocal(hosts.phoneNDI))
        #expect(hosts.accessory.neighborState(of: hosts.accessoryLink) == .reachable)
    }

    @Test func theReplyGoesInTheRequestsAccessCategoryWithItsTrafficClass() throws {
        let hosts = try hosts(seed: 62)
        hosts.phone.sendEchoRequest(on: hosts.link, sequence: 7, data: [1, 2, 3], category: .video)
        hosts.run(.seconds(2))
        let reply = try #require(
            hosts.phoneRecorder.deliveries.last { entry in
                let packet = Array(entry.delivery.payload.dropFirst(8))
                return packet.count > 40 && packet[6] == 58 && packet[40] == 129
            }
        )
        // AF41 (34) in the Traffic Class: 34 << 2 = 0x88, split over the first two octets.
        let packet = Array(reply.delivery.payload.dropFirst(8))
        #expect(packet[0] == 0x68 && packet[1] & 0xF0 == 0x80)
        #expect(AccessCategory(userPriority: reply.delivery.tid) == .video)
    }

    @Test func aPeerThatNeverAdvertisesIsGivenUpAfterThreeSolicitations() throws {
        let hosts = try hosts(seed: 63)
        hosts.accessory.answersNeighborSolicitations = false
        hosts.phone.sendEchoRequest(on: hosts.link, sequence: 1, data: [0])
        hosts.run(.seconds(5))
        let solicitations = hosts.accessoryRecorder.icmp(135)
        #expect(solicitations.count == 3)
        for (earlier, later) in zip(solicitations, solicitations.dropFirst()) {
            // RetransTimer (1 s) apart, give or take the slot each waited for.
            #expect(later.time - earlier.time > .milliseconds(900))
        }
        #expect(hosts.phone.counters.resolutionFailures == 1)
        #expect(hosts.phone.counters.droppedWhileResolving == 1)
        #expect(hosts.phone.neighborState(of: hosts.link) == NeighborState.none)
        #expect(hosts.accessoryRecorder.icmp(128).isEmpty)
    }

    @Test func aStaleNeighbourIsProbedWithAUnicastSolicitation() throws {
        let hosts = try hosts(seed: 64)
        hosts.phone.sendEchoRequest(on: hosts.link, sequence: 1, data: [0])
        hosts.run(.seconds(2))
        #expect(hosts.phone.neighborState(of: hosts.link) == .reachable)
        // ReachableTime is at most 1.5 x 30 s (RFC 4861 6.3.2).
        hosts.run(.seconds(46))
        #expect(hosts.phone.neighborState(of: hosts.link) == .stale)
        hosts.phone.sendEchoRequest(on: hosts.link, sequence: 2, data: [0])
        hosts.run(.seconds(1))
        #expect(hosts.phone.neighborState(of: hosts.link) == .delay)
        hosts.run(.seconds(6))
        let probe = try #require(hosts.accessoryRecorder.icmp(135).last?.packet)
        #expect(Array(probe[24..<40]) == Self.linkLocal(hosts.accessoryNDI), "to the neighbour's own address")
        #expect(hosts.phone.neighborState(of: hosts.link) == .reachable)
        #expect(hosts.phone.echoes[hosts.link]?.allSatisfy { $0.repliedAt != nil } == true)
    }

    @Test func aProbeFindsAListeningPortOpenAndAnotherClosed() throws {
        let hosts = try hosts(seed: 65)
        hosts.accessory.listeningTCPPorts = [8_554]
        let open = try #require(hosts.phone.probeTCP(on: hosts.link, port: 8_554))
        let closed = try #require(hosts.phone.probeTCP(on: hosts.link, port: 8_555))
        hosts.run(.seconds(3))
        let probes = hosts.phone.tcpProbes(on: hosts.link)
        #expect(probes[open]?.result == .open(maximumSegmentSize: 1_440))
        #expect(probes[closed]?.result == .closed)
        // TCP (6) segments the accessory received: two SYNs (flags 0x02, octet 40 + 13) and the
        // RST (0x04) that ended the open probe's half-open connection.
        let flags = hosts.accessoryRecorder.packets.filter { $0[6] == 6 }.map { $0[53] }
        #expect(flags == [0x02, 0x02, 0x04])
        // Its answers: SYN-ACK (0x12) and RST-ACK (0x14), the RST acknowledging the SYN.
        let answers = hosts.phoneRecorder.packets.filter { $0[6] == 6 }.map { $0[53] }
        #expect(answers.sorted() == [0x12, 0x14])
        #expect(hosts.accessory.openTCPConnections == 0)
        #expect(hosts.accessory.counters.tcpConnectionsAccepted == 0)
    }

    @Test func anAcceptedConnectionTakesDataAndClosesWhenThePeerDoes() throws {
        let hosts = try hosts(seed: 66)
        hosts.accessory.listeningTCPPorts = [7_000]
        hosts.phoneRecorder.keepsTCP = true
        let local = try #require(hosts.phone.localAddress(of: hosts.link))
        let peer = try #require(hosts.phone.peerAddress(of: hosts.link))
        func send(_ segment: TCPSegment) {
            let packet = IPv6Packet(
                nextHeader: IPNextHeader.tcp,
                hopLimit: 64,
                source: local,
                destination: peer,
                payload: segment.bytes(source: local, destination: peer)
            )
            hosts.phone.send(packet.wireBytes, on: hosts.link, category: .bestEffort)
            hosts.run(.milliseconds(500))
        }
        func lastSegment() throws -> TCPSegment {
            let packet = try #require(hosts.phoneRecorder.packets.last { $0[6] == 6 })
            return try TCPSegment(bytes: Array(packet.dropFirst(40)), source: peer, destination: local)
        }
        send(TCPSegment(sourcePort: 50_000, destinationPort: 7_000, sequenceNumber: 1_000, flags: .syn))
        let synAck = try lastSegment()
        #expect(synAck.flags == [.syn, .ack])
        #expect(synAck.acknowledgmentNumber == 1_001)
        let server = synAck.sequenceNumber
        send(
            TCPSegment(
                sourcePort: 50_000,
                destinationPort: 7_000,
                sequenceNumber: 1_001,
                acknowledgmentNumber: server &+ 1,
                flags: [.ack, .psh],
                payload: Array("hello".utf8)
            )
        )
        #expect(hosts.accessory.counters.tcpConnectionsAccepted == 1)
        let ack = try lastSegment()
        #expect(ack.flags == .ack)
        #expect(ack.acknowledgmentNumber == 1_006)
        send(
            TCPSegment(
                sourcePort: 50_000,
                destinationPort: 7_000,
                sequenceNumber: 1_006,
                acknowledgmentNumber: server &+ 1,
                flags: [.fin, .ack]
            )
        )
        let finAck = try lastSegment()
        #expect(finAck.flags == [.fin, .ack])
        #expect(finAck.acknowledgmentNumber == 1_007)
        #expect(hosts.accessory.openTCPConnections == 1)
        send(
            TCPSegment(
                sourcePort: 50_000,
                destinationPort: 7_000,
                sequenceNumber: 1_007,
                acknowledgmentNumber: server &+ 2,
                flags: .ack
            )
        )
        #expect(hosts.accessory.openTCPConnections == 0)
    }

    @Test func packetsForAnotherAddressOrThatDoNotParseAreCountedAndDropped() throws {
        let hosts = try hosts(seed: 67)
        let local = try #require(hosts.phone.localAddress(of: hosts.link))
        let stranger = try #require(IPv6Address([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [9]))
        let echo = ICMPv6Message.echoRequest(ICMPv6Echo(identifier: 1, sequence: 1, data: []))
        let elsewhere = IPv6Packet(
            nextHeader: IPNextHeader.icmpv6,
            hopLimit: 64,
            source: local,
            destination: stranger,
            payload: echo.bytes(source: local, destination: stranger)
        )
        // Resolve first, so that both go at once.
        hosts.phone.sendEchoRequest(on: hosts.link, sequence: 1, data: [])
        hosts.run(.seconds(2))
        hosts.phone.transmit(elsewhere.wireBytes, on: hosts.link, category: .bestEffort)
        var broken = elsewhere.wireBytes
        broken[broken.count - 1] ^= 0xFF
        hosts.phone.transmit(Array(broken.prefix(20)), on: hosts.link, category: .bestEffort)
        hosts.run(.seconds(1))
        #expect(hosts.accessory.counters.notForUs == 1)
        #expect(hosts.accessory.counters.malformed == 1)
        #expect(hosts.accessory.counters.echoRequestsAnswered == 1)
    }
}

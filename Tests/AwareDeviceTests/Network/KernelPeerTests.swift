import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation
import Testing

@testable import AwareDevice

/// The Linux kernel's IPv6 stack as an independent peer of ``IPv6Host``: a TAP interface in a
/// fresh user and network namespace (ci/kernel-peer/tap-bridge.py), its Ethernet frames carried
/// to and from the host as the MSDUs of one link. What the kernel answers, and what it accepts
/// from our host, was written by other people from the same RFCs: neighbour discovery both ways,
/// echo both ways, a TCP handshake both ways, a UDP checksum.
///
/// Runs where the namespace can open /dev/net/tun (root, or a world-accessible device); CI
/// requires it (`AWAREBENCH_REQUIRE_KERNEL_PEER=1`, .ci/run).
@Suite(.serialized) struct KernelPeerTests {
    static let ours = MACAddress(0x02, 0x4E, 0x41, 0x00, 0x00, 0x01)
    static let kernel = MACAddress(0x02, 0x4B, 0x45, 0x00, 0x00, 0x02)
    static let link = DataLinkID(peerNMI: kernel, ndpID: 1)

    static let available: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["unshare", "-rn", "python3", "-c", "import os; os.open('/dev/net/tun', os.O_RDWR)"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test func theKernelPeerIsAvailableWhereCIRequiresIt() {
        guard ProcessInfo.processInfo.environment["AWAREBENCH_REQUIRE_KERNEL_PEER"] == "1" else { return }
        #expect(
            Self.available,
            "unshare -rn cannot open /dev/net/tun: the kernel-peer tests did not run (run as root, or make /dev/net/tun 0666)"
        )
    }

    /// A host on one end of the TAP link, the kernel on the other.
    func withPeer(_ body: (TAPLink, IPv6Host) throws -> Void) throws {
        let tap = try TAPLink(ours: Self.ours, kernel: Self.kernel, link: Self.link)
        defer { tap.close() }
        let host = tap.wall.sync {
            var generator = SeededGenerator(seed: 91)
            let host = IPv6Host(
                linkLayer: tap,
                randomBytes: { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
            )
            host.attach(Self.link, localNDI: Self.ours, peerNDI: Self.kernel)
            return host
        }
        // The kernel's address is the EUI-64 one our host expects of its peer (RFC 4291 appendix A).
        #expect(tap.kernelAddress == tap.wall.sync { host.peerAddress(of: Self.link)?.description })
        try body(tap, host)
    }

    @Test(.enabled(if: available)) func theKernelAdvertisesItselfAndAnswersOurEcho() throws {
        try withPeer { tap, host in
            tap.wall.sync { _ = host.sendEchoRequest(on: Self.link, sequence: 1, data: Array("WA".utf8)) }
            tap.wait(5) { host.echoes[Self.link]?.first?.repliedAt != nil }
            let (advertisements, exchange, state) = tap.wall.sync {
                (host.advertisements[Self.link] ?? [], host.echoes[Self.link]?.first, host.neighborState(of: Self.link))
            }
            let advertisement = try #require(advertisements.first { $0.advertisement.solicited }?.advertisement)
            #expect(advertisement.targetLinkLayerAddress == Self.kernel)
            #expect(advertisement.override && !advertisement.router)
            #expect(state == .reachable)
            #expect(exchange?.replyDataMatched == true)
        }
    }

    @Test(.enabled(if: available)) func aProbeFindsTheKernelsListenerAndAClosedPort() throws {
        try withPeer { tap, host in
            let (open, closed) = tap.wall.sync {
                (host.probeTCP(on: Self.link, port: 7_000), host.probeTCP(on: Self.link, port: 7_001))
            }
            tap.wait(5) { host.tcpProbes(on: Self.link).values.allSatisfy { $0.result != .pending } }
            let probes = tap.wall.sync { host.tcpProbes(on: Self.link) }
            // The kernel announces its MSS for a 1500-octet MTU: 1500 - 40 - 20.
            let openPort = try #require(open)
            let closedPort = try #require(closed)
            #expect(probes[openPort]?.result == .open(maximumSegmentSize: 1_440))
            #expect(probes[closedPort]?.result == .closed)
        }
    }

    @Test(.enabled(if: available)) func theKernelConnectsPingsAndSendsUDPToOurHost() throws {
        try withPeer { tap, host in
            let received = Received()
            let address = try #require(tap.wall.sync { host.localAddress(of: Self.link)?.description })
            tap.wall.sync {
                host.listeningTCPPorts = [7_100]
                host.udpReceiver = { delivery in received.datagrams.append(delivery) }
            }
            // The kernel resolves our address (our advertisement), then completes the handshake
            // with our SYN-ACK and closes (our FIN-ACK answers its FIN).
            #expect(tap.command("connect \(address) 7100") == "connected")
            tap.wait(3) { host.openTCPConnections == 0 }
            #expect(tap.wall.sync { host.counters.tcpConnectionsAccepted } == 1)
            #expect(tap.wall.sync { host.openTCPConnections } == 0)
            let pong = try #require(tap.command("ping \(address)"))
            #expect(pong.hasPrefix("pong "), "\(pong)")
            #expect(tap.command("udp \(address) 7200 \(Array("over-the-kernel".utf8).hexString)") == "sent")
            tap.wait(3) { !received.datagrams.isEmpty }
            let datagram = try #require(tap.wall.sync { received.datagrams.first })
            // Parsing verified the kernel's UDP checksum against our pseudo-header sum.
            #expect(datagram.packet.payload == Array("over-the-kernel".utf8))
            #expect(datagram.packet.destinationPort == 7_200)
        }
    }

    final class Received: @unchecked Sendable {
        var datagrams: [UDPDelivery] = []
    }
}

extension Array where Element == UInt8 {
    fileprivate var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

/// One end of the bridge: frames to and from the kernel's TAP interface, run on a wall-clock
/// scheduler. MSDUs (LLC/SNAP + IPv6) become Ethernet II frames (RFC 2464) and back.
final class TAPLink: DataLinkLayer, @unchecked Sendable {
    let wall = WallClockScheduler()
    var scheduler: any EventScheduler { wall }
    var now: Instant { wall.now }
    weak var dataReceiver: (any DataReceiver)?
    let ours: MACAddress
    let kernel: MACAddress
    let link: DataLinkID
    private let process = Process()
    private let toBridge = Pipe()
    private let fromBridge = Pipe()
    private let lock = NSLock()
    private var texts: [String] = []
    private let textArrived = DispatchSemaphore(value: 0)
    private(set) var kernelAddress: String?

    init(ours: MACAddress, kernel: MACAddress, link: DataLinkID) throws {
        self.ours = ours
        self.kernel = kernel
        self.link = link
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "ci/kernel-peer/tap-bridge.py"
            )
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["unshare", "-rn", "python3", script.path, kernel.description]
        process.standardInput = toBridge
        process.standardOutput = fromBridge
        process.standardError = FileHandle.nullDevice
        try process.run()
        wall.runInBackground()
        let reader = Thread { [weak self] in self?.read() }
        reader.start()
        let ready = try #require(nextText(timeout: 10), "the bridge did not start")
        try #require(ready.hasPrefix("ready "), "\(ready)")
        kernelAddress = String(ready.dropFirst("ready ".count))
    }

    func close() {
        try? toBridge.fileHandleForWriting.close()
        process.waitUntilExit()
        wall.stop()
    }

    /// Runs `condition` on the scheduler every 20 ms until it holds or `seconds` pass.
    func wait(_ seconds: Double, _ condition: @escaping () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !wall.sync(condition) { usleep(20_000) }
    }

    /// A command for the kernel's side; its one-line answer.
    func command(_ line: String) -> String? {
        write(1, Array(line.utf8))
        return nextText(timeout: 10)
    }

    private func nextText(timeout: Double) -> String? {
        guard textArrived.wait(timeout: .now() + timeout) == .success else { return nil }
        return lock.withLock { texts.removeFirst() }
    }

    private func write(_ kind: UInt8, _ body: [UInt8]) {
        let message = [kind, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        try? toBridge.fileHandleForWriting.write(contentsOf: Data(message))
    }

    func sendData(_ payload: [UInt8], on id: DataLinkID, category: AccessCategory, deadline: Instant?) -> Bool {
        guard id == link, payload.count > 8 + 40 else { return false }
        let packet = Array(payload.dropFirst(8))
        // RFC 2464 7: an IPv6 multicast destination maps to 33:33 and its last four octets.
        let destination = packet[24] == 0xFF ? [0x33, 0x33] + Array(packet[36..<40]) : kernel.octets
        write(0, destination + ours.octets + [0x86, 0xDD] + packet)
        return true
    }

    private func read() {
        let handle = fromBridge.fileHandleForReading
        func exactly(_ count: Int) -> [UInt8]? {
            var data: [UInt8] = []
            while data.count < count {
                guard let chunk = try? handle.read(upToCount: count - data.count), !chunk.isEmpty else { return nil }
                data += chunk
            }
            return data
        }
        while let header = exactly(3), let body = exactly(Int(header[1]) << 8 | Int(header[2])) {
            if header[0] == 1 {
                lock.withLock { texts.append(String(decoding: body, as: UTF8.self)) }
                textArrived.signal()
                continue
            }
            // Ethernet II to us (or to a group) carrying IPv6: the MSDU our host reads.
            guard body.count > 14, body[12] == 0x86, body[13] == 0xDD,
                Array(body[0..<6]) == ours.octets || body[0] & 0x01 != 0
            else { continue }
            let msdu = LLCSNAPHeader.ipv6.wireBytes + body.dropFirst(14)
            wall.post { [weak self] in
                guard let self else { return }
                self.dataReceiver?.receive(
                    DataDelivery(
                        link: self.link,
                        tid: 0,
                        payload: msdu,
                        info: RxInfo(channel: .channel149, rssiDBm: -50, timestamp: self.wall.now)
                    )
                )
            }
        }
    }
}

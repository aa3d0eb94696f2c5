import AwareCore
import AwareWire
import Foundation
import Glibc
import Testing

@testable import AwareRadio

/// A participant that never reads (stopped, or hostile) must cost the others at most one wait
/// (issue 21, finding 4: sends to a full queue used to wait 10 ms each on the scheduler's thread,
/// and 1,000 such frames took an accessory from 12 to 0.2 frames/s).
@Suite struct SocketAirFullReceiverTests {
    /// The sockets' queue limit on this machine (unix(7): a datagram receiver's queue holds
    /// `net.unix.max_dgram_qlen` datagrams and one more).
    static var queueLimit: Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/unix/max_dgram_qlen", encoding: .utf8)) ?? "10"
        return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 10) + 1
    }

    /// Every frame either sits in the silent peer's queue or is counted as lost to a full queue;
    /// a peer that reads hears them all, and the sender's TX statuses all come back.
    @Test func aSilentPeerLosesFramesAndTheOthersHearThemAll() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let b = try AirStation(directory.air, address: addressB)
        let silent = try RawPeer(directory.air + "/silent.sock")
        defer { silent.abandon() }
        let frames = 60
        for index in 0..<frames {
            // One at a time, each acknowledged by B before the next: B's queue never fills.
            a.send(actionFrame(to: addressB, from: addressA, body: [UInt8(index)]), cookie: UInt64(index + 1))
            #expect(a.status(of: UInt64(index + 1))?.acknowledged == true)
        }
        #expect(b.received.wait(forCount: frames).count == frames)
        // The backlog's one wait (10 ms) for the silent peer may still be running.
        let settled = Date().addingTimeInterval(5)
        while Date() < settled, a.air.statistics.receiverQueueFull + Self.queueLimit < frames { usleep(10_000) }
        let queued = silent.drain()
        #expect(queued == min(frames, Self.queueLimit))
        #expect(a.statistics.receiverQueueFull == frames - queued)
        #expect(a.statistics.sendFailures == 0)
        // It let one wait run out, and is not waited for again.
        #expect(a.air.stalledPeers.withLock { $0 == [Array((directory.air + "/silent.sock").utf8)] })
    }

    /// A send to a full queue returns at once instead of waiting out the socket's timeout. A
    /// liveness check, not a performance figure: waiting (10 ms a send) allows at most 50 sends in
    /// the half second; not waiting allows tens of thousands, and the bound asks for 200.
    @Test func aSendToAFullQueueDoesNotWait() throws {
        let directory = TemporaryAirDirectory()
        try FileManager.default.createDirectory(atPath: directory.air, withIntermediateDirectories: true)
        let sender = try UnixDatagramSocket(bindingTo: directory.air + "/sender.sock", sendTimeout: .milliseconds(10))
        defer { sender.close() }
        let silent = try RawPeer(directory.air + "/silent.sock")
        defer { silent.abandon() }
        let destination = Array((directory.air + "/silent.sock").utf8)
        var results: [UnixDatagramSocket.SendResult] = []
        let deadline = Date().addingTimeInterval(0.5)
        while Date() < deadline, results.count < 200 {
            results.append(sender.send([0x01, 0x02], to: destination, waiting: false))
        }
        #expect(results.count == 200)
        #expect(results.prefix(Self.queueLimit).allSatisfy { $0 == .sent })
        #expect(results.dropFirst(Self.queueLimit).allSatisfy { $0 == .busy })
    }

    /// Datagrams unread in peers' queues are charged to the sender: once they fill its send
    /// buffer the send fails for every receiver, and says so (not "the receiver is busy"). The
    /// socket asks for more than the system's default buffer, so that takes many silent peers.
    @Test func unreadDatagramsFillTheSendersBufferAndTheResultSaysSo() throws {
        let directory = TemporaryAirDirectory()
        try FileManager.default.createDirectory(atPath: directory.air, withIntermediateDirectories: true)
        let standard = try UnixDatagramSocket(
            bindingTo: directory.air + "/standard.sock",
            sendTimeout: .milliseconds(10)
        )
        defer { standard.close() }
        let defaultText = try String(contentsOfFile: "/proc/sys/net/core/wmem_default", encoding: .utf8)
        #expect(standard.sendBufferSize > Int(defaultText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)

        let sender = try UnixDatagramSocket(
            bindingTo: directory.air + "/sender.sock",
            sendTimeout: .milliseconds(10),
            sendBuffer: 32_768
        )
        defer { sender.close() }
        let reader = try RawPeer(directory.air + "/reader.sock")
        defer { reader.abandon() }
        var silent: [RawPeer] = []
        defer { for peer in silent { peer.abandon() } }
        var result = UnixDatagramSocket.SendResult.sent
        let datagram = [UInt8](repeating: 0xA5, count: 300)
        // Fill silent peers' queues until the buffer, not a queue, is what refuses.
        while result != .sendBufferFull, silent.count < 64 {
            let path = directory.air + "/silent-\(silent.count).sock"
            silent.append(try RawPeer(path))
            repeat { result = sender.send(datagram, to: Array(path.utf8), waiting: false) } while result == .sent
        }
        #expect(result == .sendBufferFull)
        #expect(
            sender.send(datagram, to: Array((directory.air + "/reader.sock").utf8), waiting: false) == .sendBufferFull
        )
        // A silent peer reads: its datagrams are no longer charged, and the reader is reached.
        #expect(silent[0].drain() > 0)
        #expect(sender.send(datagram, to: Array((directory.air + "/reader.sock").utf8), waiting: false) == .sent)
        #expect(reader.drain() == 1)
    }

    /// A datagram for a full queue waits on the backlog's thread, not the caller's: the send
    /// returns at once with the datagram queued, and a peer that reads within the patience gets it,
    /// late but in order.
    @Test func aDatagramForAFullQueueWaitsOffTheCallersThread() throws {
        let directory = TemporaryAirDirectory()
        let scheduler = WallClockScheduler()
        let air = try SocketAir(path: directory.air, scheduler: scheduler, receiverPatience: .seconds(Int64(3)))
        defer { air.close() }
        let silentPath = directory.air + "/slow.sock"
        let slow = try RawPeer(silentPath)
        defer { slow.abandon() }
        let peer = Array(silentPath.utf8)
        for _ in 0..<Self.queueLimit { #expect(air.send([0x00], to: peer, waiting: false) == .sent) }
        #expect(air.send([0x01], to: peer, waiting: true) == .sent, "queued")
        #expect(air.send([0x02], to: peer, waiting: true) == .sent, "queued behind the first")
        // The backlog still holds both: the caller did not wait the 3 s.
        #expect(air.backlog?.count(for: peer) == 2)
        #expect(!air.stalledPeers.withLock { $0.contains(peer) })
        // The peer reads: the backlog delivers, and nothing was lost.
        var received = slow.drain()
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, air.backlog?.count(for: peer) != 0 { usleep(5_000) }
        received += slow.drain()
        #expect(received == Self.queueLimit + 2)
        #expect(air.statistics.receiverQueueFull == 0)
    }

    /// A peer that lets the wait run out loses what waited for it, and is not waited for again
    /// until it takes a datagram.
    @Test func aPeerThatLetAWaitRunOutIsNotWaitedForAgainUntilItReads() throws {
        let directory = TemporaryAirDirectory()
        let scheduler = WallClockScheduler()
        let air = try SocketAir(path: directory.air, scheduler: scheduler, receiverPatience: .milliseconds(50))
        defer { air.close() }
        let silentPath = directory.air + "/silent.sock"
        let silent = try RawPeer(silentPath)
        defer { silent.abandon() }
        let peer = Array(silentPath.utf8)
        for _ in 0..<Self.queueLimit { #expect(air.send([0x00], to: peer, waiting: false) == .sent) }
        #expect(air.send([0x00], to: peer, waiting: true) == .sent, "queued")
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !air.stalledPeers.withLock({ $0.contains(peer) }) { usleep(5_000) }
        #expect(air.stalledPeers.withLock { $0.contains(peer) })
        #expect(air.statistics.receiverQueueFull == 1)
        // Not waited for: a full queue now loses the datagram at once, nothing is queued.
        #expect(air.send([0x00], to: peer, waiting: true) == .busy)
        #expect(air.backlog?.count(for: peer) == 0)
        // The peer reads; the next send reaches it and it is waited for again.
        #expect(silent.drain() == Self.queueLimit)
        #expect(air.send([0x00], to: peer, waiting: true) == .sent)
        #expect(!air.stalledPeers.withLock { $0.contains(peer) })
    }
}

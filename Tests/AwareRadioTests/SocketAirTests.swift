import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Glibc
import Logging
import Testing

@testable import AwareRadio

/// A private directory under /tmp for one test, removed when the test ends.
final class TemporaryAirDirectory {
    let root: String
    /// A directory that does not exist yet: SocketAir creates it.
    var air: String { root + "/air" }

    init() {
        var template = Array("/tmp/awb-test-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// Records what an air's taps see.
final class RecordingTap: AirTap, @unchecked Sendable {
    // @unchecked Sendable: `frames` is an Inbox, itself locked.
    let frames = Inbox<([UInt8], NANChannel, Int)>()
    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
        frames.append((frame, channel, signalDBm))
    }
}

/// One participant: a scheduler of its own (as another process would have), a SocketAir,
/// one station attached, and inboxes for what the station hears and its TX statuses.
final class AirStation {
    let scheduler = WallClockScheduler()
    let air: SocketAir
    let address: MACAddress
    let received = Inbox<Reception>()
    let statuses = Inbox<TxStatus>()
    let tap = RecordingTap()
    private var port: (any AirPort)?

    init(
        _ directory: String,
        address: MACAddress,
        channels: Set<NANChannel> = [.channel6, .channel149],
        acknowledgementTimeout: Interval = .seconds(Int64(2)),
        logger: Logger = Logger(label: "awarebench.socket-air")
    ) throws {
        self.address = address
        air = try SocketAir(
            path: directory,
            scheduler: scheduler,
            acknowledgementTimeout: acknowledgementTimeout,
            logger: logger
        )
        scheduler.runInBackground()
        let received = received
        let statuses = statuses
        port = try scheduler.sync { () throws(AirError) -> any AirPort in
            air.addTap(tap)
            let port = try air.attach(
                StationConfiguration(addresses: [address], name: "\(address)"),
                receive: { received.append($0) },
                transmitted: { statuses.append($0) }
            )
            port.listeningChannels = channels
            return port
        }
    }

    func send(_ frame: [UInt8], on channel: NANChannel = .channel6, cookie: UInt64) {
        scheduler.sync { port?.transmit(TxRequest(frame: frame, channel: channel, powerDBm: 20, cookie: cookie)) }
    }

    func listen(on channels: Set<NANChannel>) {
        scheduler.sync { port?.listeningChannels = channels }
    }

    /// Waits for the TX status of `cookie`.
    func status(of cookie: UInt64, timeout: Double = 5) -> TxStatus? {
        statuses.wait(timeout: timeout) { $0.contains { $0.cookie == cookie } }.first { $0.cookie == cookie }
    }

    func close() {
        air.close()
        scheduler.stop()
    }

    deinit {
        close()
    }
}

let addressA = MACAddress(0x02, 0xA0, 0, 0, 0, 1)
let addressB = MACAddress(0x02, 0xB0, 0, 0, 0, 2)
let addressC = MACAddress(0x02, 0xC0, 0, 0, 0, 3)
let absentAddress = MACAddress(0x02, 0xDD, 0, 0, 0, 9)

/// An action frame (FC d0 00) from `from` to `to`, A3 the NAN Network ID, then `body`.
func actionFrame(to: MACAddress, from: MACAddress, body: [UInt8] = [0x04, 0x09, 0x50, 0x6F, 0x9A, 0x13]) -> [UInt8] {
    hex("d0 00 00 00") + to.octets + from.octets + MACAddress.nanNetworkID.octets + [0x00, 0x00] + body
}

@Suite struct SocketAirTests {
    @Test func broadcastIsHeardAndUnicastIsAcknowledged() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let b = try AirStation(directory.air, address: addressB)

        let broadcast = actionFrame(to: .broadcast, from: addressA)
        a.send(broadcast, cookie: 1)
        let heard = b.received.wait(forCount: 1)
        #expect(heard.map(\.frame) == [broadcast])
        #expect(heard.first?.info.channel == .channel6)
        #expect(heard.first?.info.rssiDBm == -50)
        #expect(a.status(of: 1)?.acknowledged == false)

        let unicast = actionFrame(to: addressB, from: addressA, body: [0x04, 0x09, 0x01])
        a.send(unicast, on: .channel149, cookie: 2)
        #expect(b.received.wait(forCount: 2).last?.frame == unicast)
        #expect(b.received.all.last?.info.channel == .channel149)
        #expect(a.status(of: 2)?.acknowledged == true)

        #expect(a.received.all.isEmpty, "a station does not hear its own frames")
        #expect(a.statistics.framesSent == 2)
        #expect(a.statistics.acknowledgementsReceived == 1)
        #expect(b.statistics.framesReceived == 2)
        #expect(b.statistics.acknowledgementsSent == 1)
        #expect(
            a.tap.frames.all.map { [$0.0 == broadcast || $0.0 == unicast, $0.2 == 20] } == [
                [true, true], [true, true],
            ]
        )
        #expect(b.tap.frames.wait(forCount: 2).map(\.2) == [-50, -50])
    }

    @Test func sideChannelEventsReachTheOtherProgramsAndNoStation() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let b = try AirStation(directory.air, address: addressB)
        let events = Inbox<[UInt8]>()
        b.scheduler.sync { b.air.eventHandler = { events.append($0) } }
        let payload = Array(#"{"event":"pin_displayed","pin":"482915"}"#.utf8)
        a.scheduler.sync { a.air.publishEvent(payload) }
        #expect(events.wait(forCount: 1) == [payload])
        #expect(b.received.all.isEmpty, "an event is not a frame: no station hears it")
        #expect(b.tap.frames.all.isEmpty, "nor does a capture of the radio")
        #expect(a.statistics.eventsSent == 1 && b.statistics.eventsReceived == 1)
    }

    @Test func unicastToAnAbsentAddressIsNotAcknowledgedAfterTheTimeout() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA, acknowledgementTimeout: .milliseconds(50))
        let b = try AirStation(directory.air, address: addressB)
        let sentAt = a.scheduler.now
        a.send(actionFrame(to: absentAddress, from: addressA), cookie: 7)
        let status = try #require(a.status(of: 7))
        #expect(status.acknowledged == false)
        #expect(status.timestamp - sentAt >= .milliseconds(50))
        #expect(b.received.wait(forCount: 1).count == 1, "others still hear it")
        #expect(a.statistics.acknowledgementTimeouts == 1)
        #expect(b.statistics.acknowledgementsSent == 0)
    }

    @Test func onlyListenedChannelsAreHeardAndAcknowledged() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA, acknowledgementTimeout: .milliseconds(50))
        let b = try AirStation(directory.air, address: addressB, channels: [.channel149])
        let on6 = actionFrame(to: addressB, from: addressA, body: [6])
        let on149 = actionFrame(to: .broadcast, from: addressA, body: [149])
        a.send(on6, on: .channel6, cookie: 1)
        a.send(on149, on: .channel149, cookie: 2)
        // Datagrams from one socket arrive in order, so once the second is heard the first
        // has been judged.
        #expect(b.received.wait(forCount: 1).map(\.frame) == [on149])
        #expect(a.status(of: 1)?.acknowledged == false, "a receiver on another channel does not acknowledge")
        #expect(b.received.all.count == 1)

        b.listen(on: [.channel6])
        a.send(on6, on: .channel6, cookie: 3)
        #expect(b.received.wait(forCount: 2).last?.frame == on6)
    }

    @Test func eitherSideMayStartFirst() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        a.send(actionFrame(to: .broadcast, from: addressA, body: [1]), cookie: 1)
        #expect(a.status(of: 1)?.acknowledged == false)

        let b = try AirStation(directory.air, address: addressB)
        let second = actionFrame(to: .broadcast, from: addressA, body: [2])
        a.send(second, cookie: 2)
        #expect(b.received.wait(forCount: 1).map(\.frame) == [second])
        #expect(a.statistics.framesSent == 2)
    }

    @Test func aThirdProcessJoinsAndLeavesCleanly() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let b = try AirStation(directory.air, address: addressB)
        a.send(actionFrame(to: .broadcast, from: addressA, body: [1]), cookie: 1)
        #expect(b.received.wait(forCount: 1).count == 1)

        let c = try AirStation(directory.air, address: addressC)
        let frame = actionFrame(to: addressC, from: addressB, body: [2])
        b.send(frame, cookie: 2)
        #expect(c.received.wait(forCount: 1).map(\.frame) == [frame])
        #expect(a.received.wait(forCount: 1).map(\.frame) == [frame])
        #expect(b.status(of: 2)?.acknowledged == true)

        let cSocket = c.air.socketPath
        #expect(SocketAirDirectory.isSocket(cSocket))
        c.close()
        #expect(!FileManager.default.fileExists(atPath: cSocket))
        a.send(actionFrame(to: .broadcast, from: addressA, body: [3]), cookie: 3)
        #expect(b.received.wait(forCount: 2).count == 2)
        #expect(a.statistics.staleSocketsRemoved == 0)
    }

    @Test func aDeadProcessSocketIsRemovedAndOtherFilesAreLeftAlone() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let b = try AirStation(directory.air, address: addressB)
        let stale = directory.air + "/99999-deadbeef.sock"
        let notes = directory.air + "/notes.txt"
        try bindAndAbandon(stale)
        #expect(FileManager.default.createFile(atPath: notes, contents: Data("keep".utf8)))

        let frame = actionFrame(to: .broadcast, from: addressA)
        a.send(frame, cookie: 1)
        #expect(b.received.wait(forCount: 1).map(\.frame) == [frame])
        #expect(a.statistics.staleSocketsRemoved == 1)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: notes))
        #expect(a.statistics.sendFailures == 0)
    }

    /// Issue 21, finding 9: hostile datagrams are counted and leave a trace at debug level.
    @Test func malformedDatagramsAreDroppedAndCountedAndOthersIgnored() throws {
        let directory = TemporaryAirDirectory()
        let log = CapturedLog()
        let b = try AirStation(directory.air, address: addressB, logger: log.logger(level: .debug))
        let raw = try RawPeer(directory.air + "/raw.sock")
        let valid = SocketAirDatagramTests.frameBytes
        var badMagic = valid
        badMagic[0] = 0x58
        var badVersion = valid
        badVersion[4] = 9
        var event = valid
        event[5] = 3
        var unknown = valid
        unknown[5] = 0x77
        var rssi = valid
        rssi[6] = 0x01
        rssi[10] = 0xBA
        let oversized = valid + [UInt8](repeating: 0, count: UnixDatagramSocket.receiveBufferSize)
        for datagram in [
            Array("hello".utf8), [], badMagic, badVersion, Array(valid.prefix(33)), oversized, event, unknown, rssi,
        ] {
            try raw.send(datagram, to: b.air.socketPath)
        }
        let heard = b.received.wait(forCount: 1)
        #expect(heard.map(\.frame) == [SocketAirDatagramTests.frame.payload])
        #expect(heard.first?.info.rssiDBm == -70, "a sender that plays the medium sets the RSSI")
        #expect(b.statistics.malformedDropped == 6)
        #expect(b.statistics.ignored == 1, "the unknown type")
        #expect(b.statistics.eventsReceived == 1, "a side-channel event is not a frame")
        #expect(b.statistics.framesReceived == 1)
        let debug = log.all.filter { $0.level == .debug }.map(\.message)
        #expect(debug.filter { $0.hasPrefix("dropped a datagram") }.count == 6, "\(debug)")
        #expect(debug.filter { $0 == "ignored a datagram" }.count == 1, "\(debug)")
    }

    /// A frame from another process is stamped when it went on the air (now, less the time since
    /// its datagram's Timestamp), not when the receiver read it: a NAN device takes a cluster's
    /// TSF from a beacon less its arrival (issue 14). A Timestamp from the future, or older than
    /// the acknowledgement timeout (2 s here), says nothing: now.
    @Test func aReceptionIsStampedWhenItsFrameWasSent() throws {
        let directory = TemporaryAirDirectory()
        let b = try AirStation(directory.air, address: addressB)
        let raw = try RawPeer(directory.air + "/raw.sock")
        let frame = actionFrame(to: .broadcast, from: addressA)
        let slack = Interval.milliseconds(2)
        // Instants count from the scheduler's start: let 20 ms of it pass first.
        usleep(50_000)
        for (index, age) in [Int64(20_000_000), -5_000_000_000, 10_000_000_000].enumerated() {
            let before = b.scheduler.now
            let datagram = SocketAirDatagram(
                type: .frame,
                frequencyMHz: 2437,
                signalDBm: 20,
                timestamp: MonotonicClock.unixNanoseconds() &- UInt64(bitPattern: age),
                cookie: UInt64(index),
                address: addressA,
                payload: frame
            )
            try raw.send(datagram.bytes, to: b.air.socketPath)
            let heard = try #require(b.received.wait(forCount: index + 1).last)
            let after = b.scheduler.now
            let stamp = heard.info.timestamp
            if index == 0 {
                #expect(stamp + .milliseconds(20) >= before + Interval(nanoseconds: -slack.nanoseconds))
                #expect(stamp + .milliseconds(20) <= after + slack)
            } else {
                #expect(
                    stamp >= before && stamp <= after,
                    "age \(age) ns: \(stamp), read between \(before) and \(after)"
                )
            }
        }
    }

    @Test func stationsOfOneProcessHearEachOther() throws {
        let directory = TemporaryAirDirectory()
        let scheduler = WallClockScheduler()
        let air = try SocketAir(path: directory.air, scheduler: scheduler)
        scheduler.runInBackground()
        defer {
            air.close()
            scheduler.stop()
        }
        let heardByB = Inbox<Reception>()
        let statusesOfA = Inbox<TxStatus>()
        let ports = try scheduler.sync { () throws(AirError) -> [any AirPort] in
            let a = try air.attach(
                StationConfiguration(addresses: [addressA], name: "a"),
                receive: { _ in },
                transmitted: { statusesOfA.append($0) }
            )
            let b = try air.attach(
                StationConfiguration(addresses: [addressB], name: "b"),
                receive: { heardByB.append($0) },
                transmitted: { _ in }
            )
            a.listeningChannels = [.channel6]
            b.listeningChannels = [.channel6]
            return [a, b]
        }
        #expect(throws: AirError.addressInUse(addressB)) {
            try scheduler.sync { () throws(AirError) in
                _ = try air.attach(
                    StationConfiguration(addresses: [addressB], name: "again"),
                    receive: { _ in },
                    transmitted: { _ in }
                )
            }
        }
        let frame = actionFrame(to: addressB, from: addressA)
        scheduler.sync { ports[0].transmit(TxRequest(frame: frame, channel: .channel6, cookie: 5)) }
        #expect(heardByB.wait(forCount: 1).map(\.frame) == [frame])
        #expect(statusesOfA.wait(forCount: 1).map(\.acknowledged) == [true])
        scheduler.sync { ports[1].detach() }
        scheduler.sync { ports[0].transmit(TxRequest(frame: frame, channel: .channel6, cookie: 6)) }
        #expect(
            statusesOfA.wait(forCount: 2).last
                == TxStatus(cookie: 6, acknowledged: false, timestamp: statusesOfA.all.last!.timestamp)
        )
    }

    @Test func closeUnlinksTheSocketAndKeepsTheDirectoryPrivate() throws {
        let directory = TemporaryAirDirectory()
        let scheduler = WallClockScheduler()
        let air = try SocketAir(path: directory.air, scheduler: scheduler)
        var status = stat()
        #expect(stat(directory.air, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(lstat(air.socketPath, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(air.socketPath.hasPrefix(directory.air + "/\(getpid())-"))
        air.close()
        air.close()
        #expect(lstat(air.socketPath, &status) != 0)
        scheduler.stop()
    }

    @Test func aPathThatIsNotADirectoryIsRefused() throws {
        let directory = TemporaryAirDirectory()
        let file = directory.root + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let error = #expect(throws: AirError.self) { try SocketAir(path: file, scheduler: WallClockScheduler()) }
        #expect(error?.description.contains("exists and is not a directory") == true)
        let below = #expect(throws: AirError.self) {
            try SocketAir(path: file + "/air", scheduler: WallClockScheduler())
        }
        #expect(below?.description.contains("cannot create the socket air directory") == true)
    }

    @Test func anOverlongPathIsRefusedWithAShorterSuggestion() throws {
        let directory = TemporaryAirDirectory()
        let long = directory.root + "/" + String(repeating: "a", count: 90)
        let error = #expect(throws: AirError.self) { try SocketAir(path: long, scheduler: WallClockScheduler()) }
        #expect(error?.description.contains("at most 85") == true)
        #expect(error?.description.contains("choose a shorter path") == true)
        #expect(!FileManager.default.fileExists(atPath: long), "nothing is created for a refused path")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory to another user"))
    func aDirectoryOfAnotherUserIsRefused() throws {
        let directory = TemporaryAirDirectory()
        let theirs = directory.root + "/theirs"
        #expect(mkdir(theirs, 0o700) == 0)
        #expect(chown(theirs, 65_534, 65_534) == 0)
        let error = #expect(throws: AirError.self) { try SocketAir(path: theirs, scheduler: WallClockScheduler()) }
        #expect(error?.description.contains("belongs to user 65534") == true)
    }

    /// Issue 21, finding 6: in a world-writable air directory another user bound a socket and
    /// heard 207 frames, the PIN among them. Group- or world-writable air directories are refused.
    @Test(arguments: [mode_t(0o777), 0o770, 0o1777])
    func anAirDirectoryOthersMayWriteIsRefused(_ mode: mode_t) throws {
        let directory = TemporaryAirDirectory()
        let shared = directory.root + "/shared"
        #expect(mkdir(shared, 0o700) == 0)
        #expect(chmod(shared, mode) == 0)
        let error = #expect(throws: AirError.self) { try SocketAir(path: shared, scheduler: WallClockScheduler()) }
        #expect(
            error?.description.contains("may be written by its group or by everyone (mode 0\(String(mode, radix: 8)))")
                == true
        )
        #expect(error?.description.contains("chmod 700") == true)
        #expect(chmod(shared, 0o755) == 0)
        let air = try SocketAir(path: shared, scheduler: WallClockScheduler())
        air.close()
    }

    @Test func theDefaultPathIsPerUser() throws {
        let directory = TemporaryAirDirectory()
        #expect(
            SocketAirDirectory.defaultPath(environment: ["XDG_RUNTIME_DIR": directory.root]) == directory.root
                + "/awarebench/air"
        )
        #expect(SocketAirDirectory.defaultPath(environment: [:]) == "/tmp/awarebench-\(geteuid())/air")
        #expect(
            SocketAirDirectory.defaultPath(environment: ["XDG_RUNTIME_DIR": directory.root + "/missing"])
                == "/tmp/awarebench-\(geteuid())/air"
        )
        let expected =
            ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].map { _ in "/awarebench/air" }
            ?? "/tmp/awarebench-\(geteuid())/air"
        #expect(SocketAir.defaultPath.hasSuffix(expected))
    }
}

extension AirStation {
    var statistics: SocketAirStatistics { air.statistics }
}

/// Leaves a socket file behind as a process killed with SIGKILL would: bound, then closed
/// without unlinking.
func bindAndAbandon(_ path: String) throws {
    let peer = try RawPeer(path)
    peer.abandon()
}

/// A plain Unix datagram socket, to speak the protocol from outside SocketAir.
final class RawPeer {
    let descriptor: Int32

    init(_ path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = RawPeer.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(result == 0)
    }

    func send(_ bytes: [UInt8], to path: String) throws {
        var address = RawPeer.address(path)
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        descriptor,
                        buffer.baseAddress,
                        buffer.count,
                        0,
                        $0,
                        socklen_t(MemoryLayout<sockaddr_un>.size)
                    )
                }
            }
        }
        try #require(sent == bytes.count)
    }

    func abandon() {
        close(descriptor)
    }

    /// Reads, without waiting, every datagram queued for this socket; how many there were.
    func drain() -> Int {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var count = 0
        while buffer.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) >= 0 {
            count += 1
        }
        return count
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, octet) in path.utf8.enumerated() { raw[index] = octet }
        }
        return address
    }
}

/// What a `Logger` was told, for tests that check what leaves a trace.
final class CapturedLog: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only touched while `lock` is held.
    private let lock = NSLock()
    private var entries: [(level: Logger.Level, message: String)] = []

    var all: [(level: Logger.Level, message: String)] { lock.withLock { entries } }

    func append(_ level: Logger.Level, _ message: String) { lock.withLock { entries.append((level, message)) } }

    /// A logger at `level` writing here.
    func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "test") { _ in CapturingLogHandler(log: self) }
        logger.logLevel = level
        return logger
    }
}

struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level,
        message: Logger.Message,
        metadata: Logger.Metadata?,
        source: String,
        file: String,
        function: String,
        line: UInt
    ) {
        log.append(level, "\(message)")
    }
}

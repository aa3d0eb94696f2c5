import AwareCore
import AwareWire
import Foundation
import Glibc
import Logging
import Synchronization

/// An air shared by processes on one machine (docs/reference/socket-air.md): a directory in which
/// every process binds one Unix datagram socket. A frame goes to every other socket in the
/// directory as one datagram (a 34-octet header, then the 802.11 frame); a unicast frame's
/// receiver answers with a TX-status datagram, because real stacks wait for an ACK. There
/// is no broker, no root and no port number, and either side may start first.
///
/// Without positions there is no path loss: a frame is received at ``rssiDBm`` unless its
/// sender (a program playing the medium) set an RSSI of its own.
///
/// Threads: everything runs on ``wallClock``'s executor, as the ``Air`` contract wants,
/// except a reader thread that blocks on the socket, decodes datagrams and posts them to
/// the executor. ``close()`` may be called from any thread.
///
/// `@unchecked Sendable`: the stored mutable state (ports, taps, pending acknowledgements)
/// is only touched on the scheduler's executor; the reader thread holds a weak reference
/// only to post work there. The socket and the statistics are thread-safe themselves.
public final class SocketAir: ImpairableAir, @unchecked Sendable {
    /// The air both programs join when no path is given: `$XDG_RUNTIME_DIR/awarebench/air`,
    /// or `/tmp/awarebench-<uid>/air` when there is no runtime directory.
    public static var defaultPath: String { SocketAirDirectory.defaultPath() }

    /// The directory, absolute and canonical.
    public let path: String
    /// This process's socket file in ``path``; unlinked by ``close()``.
    public var socketPath: String { socket.path }
    public let wallClock: WallClockScheduler
    public var scheduler: any EventScheduler { wallClock }
    /// The RSSI reported for every frame received from another process.
    public let rssiDBm: Int
    /// The modelled link to everyone else, when this process has one (``SocketAirLink``); nil
    /// keeps the fixed ``rssiDBm``. Set and read on the scheduler's executor only.
    public var link: SocketAirLink?
    /// A test's impairments (fault plans), for the frames this process's stations send and
    /// receive; set and read on the scheduler's executor only.
    public var impairer: (any FrameImpairer)?
    /// How long a unicast frame waits for its TX status before it counts as not acknowledged.
    public let acknowledgementTimeout: Interval

    public var statistics: SocketAirStatistics { counters.snapshot }

    let socket: UnixDatagramSocket
    let counters = LockedStatistics()
    /// Peers whose queue stayed full for a whole wait (their socket paths): until one takes a
    /// datagram again, nothing waits for it (``send(_:to:waiting:)``). Touched by the scheduler
    /// (frames, events) and the reader thread (TX statuses).
    let stalledPeers = Mutex<Set<[UInt8]>>([])
    /// Whether the last send found this socket's send buffer full: the warning is logged once
    /// each time it fills, not once a datagram.
    let sendBufferWasFull = Atomic<Bool>(false)
    /// Where a datagram for a full queue waits under the wall clock, off the scheduler's thread;
    /// nil on a lockstep air, where sends wait in place (a grant must not pass a frame).
    var backlog: SocketAirBacklog?
    /// What the air does that nobody sees in a capture: joining, peers that went away, datagrams
    /// it could not read or deliver (`--log-level debug` shows them).
    let logger: Logger
    var ports: [Port] = []
    var taps: [any AirTap] = []
    var pending: [UInt64: PendingAcknowledgement] = [:]
    var nextCookie: UInt64 = 1
    /// Receives side-channel events (message type 3) from other programs, on the scheduler.
    public var eventHandler: (([UInt8]) -> Void)?
    private let readerFinished = DispatchSemaphore(value: 0)
    private let closeLock = NSLock()
    private var closed = false

    /// A unicast frame waiting for its receiver's TX status.
    struct PendingAcknowledgement {
        var port: Port
        var requestCookie: UInt64
        var timeout: ScheduledWork
    }

    /// Joins the air in `path` (created 0700 if missing) by binding a socket file there.
    ///
    /// `lockstep`: the processes of the air share one virtual clock (docs/reference/socket-air.md,
    /// "Lockstep"); the scheduler's time becomes that clock, and this process starts the air's
    /// clock if it is the first. `startsHeld` keeps its time still until the owner lets it run
    /// (``WallClockScheduler/runLockstep(until:then:)``): the runner's sessions.
    /// `receiverPatience`: how long a datagram for a full queue waits, off the scheduler's thread,
    /// for a peer that is reading (``SocketAirBacklog``; 200 ms on a lockstep air). `logger`: where
    /// the air says what it does (tests read it).
    public init(
        path: String = SocketAir.defaultPath,
        scheduler: WallClockScheduler,
        rssiDBm: Int = -50,
        acknowledgementTimeout: Interval = .milliseconds(50),
        lockstep: Bool = false,
        startsHeld: Bool = false,
        receiverPatience: Interval = .milliseconds(10),
        logger: Logger = Logger(label: "awarebench.socket-air")
    ) throws(AirError) {
        self.logger = logger
        self.path = try SocketAirDirectory.prepare(path)
        wallClock = scheduler
        self.rssiDBm = rssiDBm
        self.acknowledgementTimeout = acknowledgementTimeout
        // The longest a send waits for room in the queue of a peer that is reading
        // (``send(_:to:waiting:)``); on a lockstep air longer: grants and frames share a socket's
        // queue, so a grant is never read before a frame sent ahead of it, and a lost frame would
        // break replay.
        socket = try UnixDatagramSocket(
            bindingTo: self.path + "/" + SocketAirDirectory.newSocketName(),
            sendTimeout: lockstep ? .milliseconds(200) : receiverPatience
        )
        isLockstep = lockstep
        if lockstep {
            do {
                clock = try LockstepClock.startIfAbsent(in: self.path)
            } catch {
                SocketAirDirectory.removeSocket(socket.path)
                socket.close()
                throw error
            }
            let socket = socket
            let clockPath = Array(LockstepClock.socketPath(in: self.path).utf8)
            scheduler.enableLockstep(held: startsHeld) { round, next in
                _ = socket.send(LockstepMessage.report(round: round, next: next).datagram.bytes, to: clockPath)
            }
        }
        if !lockstep {
            weak let air = self
            backlog = SocketAirBacklog(
                socket: socket,
                sent: { peer in air?.stalledPeers.withLock { _ = $0.remove(peer) } },
                // The datagram waited on and the backlog behind it are lost.
                stalled: { peer, dropped in air?.peerStalled(peer, lost: dropped + 1) }
            )
        }
        startReader()
        if lockstep { sendToClock(.register) }
        logger.info(
            "joined the socket air",
            metadata: ["air": "\(self.path)", "socket": "\(socket.path)", "lockstep": "\(lockstep)"]
        )
    }

    /// Whether this air's processes share one virtual clock.
    public let isLockstep: Bool
    /// The air's clock, when this process started it.
    var clock: LockstepClock?

    func sendToClock(_ message: LockstepMessage) {
        _ = socket.send(message.datagram.bytes, to: Array(LockstepClock.socketPath(in: path).utf8))
    }

    deinit {
        close()
    }

    public func attach(
        _ station: StationConfiguration,
        receive: @escaping (Reception) -> Void,
        transmitted: @escaping (TxStatus) -> Void
    ) throws(AirError) -> any AirPort {
        for address in station.addresses where ports.contains(where: { $0.station.addresses.contains(address) }) {
            throw .addressInUse(address)
        }
        let port = Port(station: station, air: self, receive: receive, transmitted: transmitted)
        ports.append(port)
        return port
    }

    public func addTap(_ tap: any AirTap) {
        taps.append(tap)
    }

    /// Leaves the air: stops the reader and unlinks this process's socket file. Safe from
    /// any thread and more than once, e.g. from a `DispatchSourceSignal` handler for SIGINT
    /// and SIGTERM (not from a raw signal handler: it takes locks; that can unlink
    /// ``socketPath`` itself).
    public func close() {
        let first = closeLock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        if isLockstep { sendToClock(.leave) }
        backlog?.stop()
        socket.shutdown()
        readerFinished.wait()
        SocketAirDirectory.removeSocket(socket.path)
        socket.close()
        clock?.close()
    }

    var isClosed: Bool { closeLock.withLock { closed } }

    func detach(_ port: Port) {
        ports.removeAll { $0 === port }
        pending = pending.filter { $0.value.port !== port }
    }

    private func startReader() {
        let socket = socket
        let counters = counters
        let finished = readerFinished
        let scheduler = wallClock
        let logger = logger
        // Weak: the reader must not keep the air alive, or deinit (and close) never runs.
        weak let air = self
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: UnixDatagramSocket.receiveBufferSize)
            while let received = socket.receive(into: &buffer) {
                let datagram: SocketAirDatagram
                do {
                    guard !received.truncated else {
                        counters.count(\.malformedDropped)
                        logger.debug("dropped a datagram longer than the receive buffer")
                        continue
                    }
                    datagram = try SocketAirDatagram(bytes: received.bytes)
                } catch {
                    counters.count(\.malformedDropped)
                    logger.debug(
                        "dropped a datagram it cannot read",
                        metadata: ["octets": "\(received.bytes.count)", "reason": "\(error)"]
                    )
                    continue
                }
                scheduler.post { air?.handle(datagram, from: received.source) }
            }
            finished.signal()
        }
        thread.name = "SocketAir reader"
        thread.start()
    }
}

// MARK: - Port

extension SocketAir {
    /// A station's attachment to a ``SocketAir``. Like a port on the simulated air it hears
    /// nothing until ``listeningChannels`` is set.
    public final class Port: AirPort {
        public let station: StationConfiguration
        public var listeningChannels: Set<NANChannel> = []
        let receive: (Reception) -> Void
        let transmitted: (TxStatus) -> Void
        weak var air: SocketAir?
        var attached = true
        /// Lockstep: when the station's last frame ends on the air (virtual ns).
        var busyUntil: UInt64 = 0

        init(
            station: StationConfiguration,
            air: SocketAir,
            receive: @escaping (Reception) -> Void,
            transmitted: @escaping (TxStatus) -> Void
        ) {
            self.station = station
            self.air = air
            self.receive = receive
            self.transmitted = transmitted
        }

        public func transmit(_ request: TxRequest) {
            guard attached else { return }
            air?.transmit(request, from: self)
        }

        public func detach() {
            guard attached else { return }
            attached = false
            air?.detach(self)
        }

        /// Whether the station hears `channel` and owns `address` (so it acknowledges).
        func acknowledges(_ address: MACAddress, on channel: NANChannel) -> Bool {
            attached && listeningChannels.contains(channel) && station.addresses.contains(address)
        }
    }
}

// MARK: - Side channel

/// Events between programs that are not radio frames (docs/reference/socket-air.md, message type 3).
/// The first user is the accessory's PIN display: on a shared air it stands in for the eyes of
/// the person who reads the PIN off the accessory and types it into the phone.
public protocol SideChannelAir: AnyObject {
    /// Sends `payload` (UTF-8 JSON) to every other program on the air.
    func publishEvent(_ payload: [UInt8])
    /// Receives the events other programs publish, on the air's scheduler.
    var eventHandler: (([UInt8]) -> Void)? { get set }
}

extension SocketAir: SideChannelAir {
    /// In lockstep an event takes effect at a virtual time, as a frame does (the lookahead after
    /// it was published): read whenever its datagram came, a PIN display reached the phone at a
    /// round's end that wall-clock timing chose, so whether the phone had the PIN when it asked
    /// could differ between two runs of one seed.
    public func publishEvent(_ payload: [UInt8]) {
        guard !isClosed else { return }
        let cookie = nextCookie
        nextCookie &+= 1
        var timestamp = MonotonicClock.unixNanoseconds()
        if isLockstep {
            timestamp = wallClock.now.nanoseconds + LockstepClockState.lookahead
            wallClock.lockstepOutput(arrivingAt: timestamp)
        }
        let datagram = SocketAirDatagram(
            type: .event,
            flags: isLockstep ? SocketAirDatagram.flagVirtualTime : 0,
            frequencyMHz: 0,
            signalDBm: 0,
            timestamp: timestamp,
            cookie: cookie,
            address: Self.zeroAddress,
            payload: payload
        )
        broadcast(datagram.bytes, waiting: true)
        counters.count(\.eventsSent)
    }

    func received(event datagram: SocketAirDatagram) {
        counters.count(\.eventsReceived)
        guard isLockstep, datagram.carriesVirtualTime else {
            eventHandler?(datagram.payload)
            return
        }
        wallClock.scheduleArrival(at: datagram.timestamp, sender: datagram.address, token: datagram.cookie) {
            [weak self] in
            self?.eventHandler?(datagram.payload)
        }
    }
}

// MARK: - SocketAirLink

/// The link between a process on the socket air and everyone else, when that process models one
/// (an accessory told where it stands through its control channel, docs/reference/control.md). There are
/// no positions across processes, so the process that moves decides the link for both ends: it
/// reports `rssiDBm` for frames it hears and stamps `rssiDBm` on the frames it sends (flags bit
/// 0, docs/reference/socket-air.md), so the other side reports the same figure.
public struct SocketAirLink: Hashable, Sendable {
    /// The received signal strength at either end, in dBm.
    public var rssiDBm: Int
    /// False below the receiver's sensitivity: frames neither leave nor arrive, and unicast
    /// frames end unacknowledged after the acknowledgement timeout, as they would out of range.
    public var inRange: Bool

    public init(rssiDBm: Int, inRange: Bool) {
        self.rssiDBm = rssiDBm
        self.inRange = inRange
    }
}

// MARK: - SocketAirStatistics

/// What a ``SocketAir`` has counted since it was created, for logs and tests.
public struct SocketAirStatistics: Hashable, Sendable {
    /// Frames this process put on the air (one per transmit, however many peers).
    public var framesSent = 0
    /// Frame datagrams received from other processes.
    public var framesReceived = 0
    /// Datagrams dropped because they were short, cut, or had a bad magic or version.
    public var malformedDropped = 0
    /// Well-formed datagrams of a type this version does not act on (unknown types).
    public var ignored = 0
    /// Side-channel events (message type 3) this process published.
    public var eventsSent = 0
    /// Side-channel events received from other processes.
    public var eventsReceived = 0
    /// TX statuses sent back for unicast frames addressed to a station here.
    public var acknowledgementsSent = 0
    /// TX statuses that matched a frame still waiting for one.
    public var acknowledgementsReceived = 0
    /// Unicast frames reported `acknowledged: false` because no TX status came in time.
    public var acknowledgementTimeouts = 0
    /// TX statuses that came after their timeout, or for no frame of ours.
    public var unmatchedAcknowledgements = 0
    /// Socket files of dead processes removed from the directory.
    public var staleSocketsRemoved = 0
    /// Datagrams not delivered to a live peer because its queue was full (docs/reference/socket-air.md,
    /// "Delivery and its limits"): the peer lost that frame, as a radio's receiver would.
    public var receiverQueueFull = 0
    /// Datagrams not sent because this process's send buffer was full of datagrams its peers
    /// had not read (docs/reference/socket-air.md, "Delivery and its limits").
    public var sendBufferFull = 0
    /// Datagrams not delivered to a live peer for another reason (an errno other than a full queue).
    public var sendFailures = 0
    /// Frames neither sent nor delivered because the modelled link was out of range.
    public var outOfRangeDropped = 0
    /// Frames a test's ``FrameImpairer`` lost, altered or held back.
    public var impaired = 0

    public init() {}
}

// MARK: - LockedStatistics

/// The statistics of a ``SocketAir``, counted on the reader thread (malformed datagrams)
/// and on the scheduler thread (everything else), read from anywhere.
///
/// `@unchecked Sendable`: `value` is only touched while `lock` is held.
final class LockedStatistics: @unchecked Sendable {
    private let lock = NSLock()
    private var value = SocketAirStatistics()

    var snapshot: SocketAirStatistics { lock.withLock { value } }

    func count(_ counter: WritableKeyPath<SocketAirStatistics, Int>, by amount: Int = 1) {
        lock.withLock { value[keyPath: counter] += amount }
    }
}

import AwareCore
import AwareWire
import Foundation
import Glibc

/// The clock of a lockstep air: a thread in the first process that joins the air with
/// lockstep, on its own socket `PATH/.lockstep/clock` (a subfolder, so frames never reach it).
/// It runs ``LockstepClockState`` over datagrams, and drops members whose socket is gone.
///
/// `@unchecked Sendable`: `state` is touched only by the clock's thread; the socket is
/// thread-safe.
final class LockstepClock: @unchecked Sendable {
    let path: String
    private let socket: UnixDatagramSocket
    private var state = LockstepClockState()
    private let finished = DispatchSemaphore(value: 0)

    /// The clock's socket path for the air in `directory`.
    static func socketPath(in directory: String) -> String { directory + "/.lockstep/clock" }

    /// Starts the air's clock unless a live one answers there; nil when another process has it.
    static func startIfAbsent(in directory: String) throws(AirError) -> LockstepClock? {
        let folder = directory + "/.lockstep"
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw .unavailable("cannot create \(folder): \(UnixDatagramSocket.errorText(errno))")
        }
        let path = socketPath(in: directory)
        if SocketAirDirectory.isSocket(path) {
            // A live clock answers a probe; a dead process's socket refuses it.
            let probe = try UnixDatagramSocket(
                bindingTo: folder + "/" + SocketAirDirectory.newSocketName(),
                sendTimeout: .milliseconds(100)
            )
            defer {
                SocketAirDirectory.removeSocket(probe.path)
                probe.close()
            }
            if probe.send(LockstepMessage.probe.datagram.bytes, to: Array(path.utf8)) == .sent { return nil }
            SocketAirDirectory.removeSocket(path)
        }
        let clock = LockstepClock(socket: try UnixDatagramSocket(bindingTo: path, sendTimeout: .milliseconds(200)))
        clock.start()
        return clock
    }

    private init(socket: UnixDatagramSocket) {
        self.socket = socket
        path = socket.path
    }

    private func start() {
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "Lockstep clock"
        thread.start()
    }

    /// Stops the clock and removes its socket.
    func close() {
        socket.shutdown()
        finished.wait()
        SocketAirDirectory.removeSocket(path)
        socket.close()
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            guard socket.waitReadable(milliseconds: 500) else {
                if socket.isClosed { return }
                dropVanishedMembers()
                continue
            }
            guard let received = socket.receive(into: &buffer) else { return }
            let source = received.source.prefix { $0 != 0 }
            guard let datagram = try? SocketAirDatagram(bytes: received.bytes),
                let message = LockstepMessage(datagram), !source.isEmpty
            else { continue }
            let member = String(decoding: source, as: UTF8.self)
            send(state.handle(message, from: member))
        }
    }

    /// Members that owe a report but whose process is gone leave the round.
    private func dropVanishedMembers() {
        for member in state.waitingFor {
            switch socket.send(LockstepMessage.probe.datagram.bytes, to: Array(member.utf8)) {
            case .refused, .missing: send(state.remove(member))
            case .sent, .busy, .sendBufferFull, .failed: continue
            }
        }
    }

    private func send(_ outputs: [LockstepClockState.Output]) {
        for case .send(let message, let member) in outputs {
            // A grant must not be lost: a full queue is waited out (briefly), a vanished
            // member leaves.
            var tries = 0
            while true {
                switch socket.send(message.datagram.bytes, to: Array(member.utf8)) {
                case .sent: break
                case .busy where tries < 50, .sendBufferFull where tries < 50:
                    tries += 1
                    continue
                case .refused, .missing, .busy, .sendBufferFull, .failed:
                    send(state.remove(member))
                }
                break
            }
        }
    }
}

// MARK: - LockstepClockState

/// The clock of a lockstep air, as a value: who the members are, which round is in progress,
/// and who has reported. Pure: messages in, messages out (to a member's socket path).
///
/// Rounds follow the global-minimum (YAWNS) scheme: in round r every member runs its work
/// before the horizon H(r); then each reports the earliest time it may act again; when all
/// have, H(r+1) = min(reports) + lookahead. A frame sent in round r reaches others no sooner
/// than its send time plus the lookahead (the shortest airtime), so no one ever receives
/// something in its past.
public struct LockstepClockState: Sendable {
    /// The shortest time from one member acting to another feeling it: the OFDM preamble and
    /// SIGNAL field, 20 µs (IEEE 802.11-2020 17.3.2.4), below any frame's airtime.
    public static let lookahead: UInt64 = 20_000

    public private(set) var round: UInt64 = 1
    public private(set) var horizon: UInt64 = 0
    /// Members by socket path, with their report for the round in progress.
    public private(set) var members: [String: UInt64?] = [:]

    public init() {}

    public enum Output: Hashable, Sendable {
        case send(LockstepMessage, to: String)
    }

    public mutating func handle(_ message: LockstepMessage, from member: String) -> [Output] {
        switch message {
        case .register:
            members[member] = .some(nil)
            return [.send(.admit(round: round, horizon: horizon), to: member)]
        case .report(let reported, let next):
            // A member may report again in the same round: when work reached it while it
            // waited (a frame, a command), its next time moved.
            guard reported == round, members[member] != nil else { return [] }
            members[member] = next
            return closeRoundIfComplete()
        case .leave:
            members[member] = nil
            return closeRoundIfComplete()
        case .admit, .grant, .probe:
            return []
        }
    }

    /// A member whose socket is gone (it died without leaving).
    public mutating func remove(_ member: String) -> [Output] {
        handle(.leave, from: member)
    }

    /// The members that have not reported in the round in progress.
    public var waitingFor: [String] {
        members.filter { $0.value == nil }.map(\.key).sorted()
    }

    /// Time runs only while this many processes share the air: a process alone waits for the
    /// other (the emulator for the runner), so both start from the same moment every run.
    public static let quorum = 2

    private mutating func closeRoundIfComplete() -> [Output] {
        guard members.count >= Self.quorum, members.values.allSatisfy({ $0 != nil }) else { return [] }
        let earliest = members.values.compactMap { $0 }.min() ?? LockstepMessage.never
        // Nobody has anything to do: the round stays open (time stands still) until a member
        // reports work or a new member registers.
        guard earliest < LockstepMessage.never - Self.lookahead else { return [] }
        horizon = max(horizon, earliest + Self.lookahead)
        round += 1
        for key in members.keys { members[key] = .some(nil) }
        return members.keys.sorted().map { .send(.grant(round: round, horizon: horizon), to: $0) }
    }
}

// MARK: - LockstepMessage

/// The messages of lockstep virtual time on a socket air (docs/reference/socket-air.md, "Lockstep"):
/// socket-air datagrams of type 4, the kind in the flags, the time (virtual nanoseconds) in
/// the timestamp and the round in the cookie.
///
/// Members send `register`, `report` and `leave` to the clock (`PATH/.lockstep/clock`); the
/// clock answers `admit` and `grant` to each member's air socket, the same socket frames
/// arrive on, so a frame sent before a round ended is always read before that round's grant.
public enum LockstepMessage: Hashable, Sendable {
    /// A process joins: it counts in every round from the one in progress.
    case register
    /// The clock's answer: the round in progress and its horizon; the member starts its
    /// virtual time at the horizon (no one has run anything at or after it).
    case admit(round: UInt64, horizon: UInt64)
    /// A member has run everything before the round's horizon; `next` is the earliest time it
    /// may act again: its next timed work, or the arrival of a frame it sent in the round.
    case report(round: UInt64, next: UInt64)
    /// Everyone reported: work before `horizon` may run.
    case grant(round: UInt64, horizon: UInt64)
    /// A member leaves; it no longer counts.
    case leave
    /// The clock checks that a member that has not reported still has its socket; ignored.
    case probe

    static let type = SocketAirMessageType.clock
    /// No next time: a member with nothing scheduled.
    public static let never = UInt64.max

    var kind: UInt16 {
        switch self {
        case .register: 1
        case .admit: 2
        case .report: 3
        case .grant: 4
        case .leave: 5
        case .probe: 6
        }
    }

    public var datagram: SocketAirDatagram {
        let (time, round): (UInt64, UInt64) =
            switch self {
            case .register, .leave, .probe: (0, 0)
            case .admit(let round, let horizon), .grant(let round, let horizon): (horizon, round)
            case .report(let round, let next): (next, round)
            }
        return SocketAirDatagram(
            type: Self.type,
            flags: kind,
            frequencyMHz: 0,
            signalDBm: 0,
            timestamp: time,
            cookie: round,
            address: MACAddress(0, 0, 0, 0, 0, 0)
        )
    }

    /// The message a clock datagram carries; nil for another type or an unknown kind.
    public init?(_ datagram: SocketAirDatagram) {
        guard datagram.type == Self.type else { return nil }
        let time = datagram.timestamp
        let round = datagram.cookie
        switch datagram.flags {
        case 1: self = .register
        case 2: self = .admit(round: round, horizon: time)
        case 3: self = .report(round: round, next: time)
        case 4: self = .grant(round: round, horizon: time)
        case 5: self = .leave
        case 6: self = .probe
        default: return nil
        }
    }
}

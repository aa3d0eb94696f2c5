import AwareCore
import AwareWire

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

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

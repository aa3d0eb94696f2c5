import AwareCore
import AwareDevice
import AwareWire
import Foundation

/// Who may still guess a PIN: a ``PairingAttemptLimiter`` per phone (by its NMI) and one over all
/// phones together, kept in the state directory's `lockout.json` so that neither a restart nor a
/// kill -9 clears them (docs/guides/running-the-accessory.md, "Wrong PINs and lockout").
///
/// Per phone, `pairing.pin.maxWrongAttempts` wrong PINs in a row lock that phone: a guesser does
/// not lock out everyone else (issue 21: three abandoned exchanges used to lock pairing for every
/// phone). An NMI costs nothing to change, though, so all phones together get
/// ``overallFactor`` times as many before pairing locks for everyone: changing addresses buys a
/// guesser a few more tries, not an unlimited number. A correct PIN clears its phone's count and
/// the overall one (the counts are of wrong PINs in a row, as NIST SP 800-63B 5.2.2 counts
/// consecutive failed attempts). A pure value; ``LockoutFile`` keeps it.
public struct PairingLockout: Hashable, Sendable {
    /// All phones together may enter this many times as many wrong PINs as one phone.
    public static let overallFactor = 3
    /// Phones whose counts are kept; past it the phones with the fewest wrong PINs are forgotten
    /// first (a guesser inventing NMIs must not grow the file without bound; the overall count
    /// still has their guesses).
    public static let maximumTrackedPeers = 64

    public let policy: PinPolicy
    public private(set) var overall: PairingAttemptLimiter
    public private(set) var peers: [MACAddress: PairingAttemptLimiter]

    public init(policy: PinPolicy) {
        self.policy = policy
        overall = PairingAttemptLimiter(
            maxWrongAttempts: policy.maxWrongAttempts * Self.overallFactor,
            lockoutSeconds: policy.lockoutSeconds
        )
        peers = [:]
    }

    /// The lockout as it was saved, at `now` (a boot): a lockout then in force starts again in full
    /// (``PairingAttemptLimiter/init(policy:restoring:at:)``).
    public init(policy: PinPolicy, restoring saved: Saved, at now: Instant) {
        self.init(policy: policy)
        var overallPolicy = policy
        overallPolicy.maxWrongAttempts = policy.maxWrongAttempts * Self.overallFactor
        overall = PairingAttemptLimiter(policy: overallPolicy, restoring: saved.overall, at: now)
        for entry in saved.peers.prefix(Self.maximumTrackedPeers) {
            guard let peer = MACAddress(string: entry.peer) else { continue }
            peers[peer] = PairingAttemptLimiter(policy: policy, restoring: entry.limiter, at: now)
        }
    }

    /// Whether `peer` may try now: refused while its own lockout or the overall one lasts, until
    /// the later of the two ends.
    public func check(_ peer: MACAddress, at now: Instant) -> LimiterCheck {
        let ends = [peers[peer]?.check(at: now), overall.check(at: now)].compactMap { check -> Instant? in
            if case .lockedOut(let until)? = check { return until }
            return nil
        }
        return ends.max().map { .lockedOut(until: $0) } ?? .allowed
    }

    /// Counts a wrong PIN from `peer` against it and against everyone.
    public mutating func recordFailure(of peer: MACAddress, at now: Instant) -> LockoutOutcome {
        var limiter = peers[peer] ?? PairingAttemptLimiter(policy: policy)
        let own = limiter.recordFailure(at: now)
        peers[peer] = limiter
        forgetPeersBeyondTheLimit(keeping: peer)
        let all = overall.recordFailure(at: now)
        switch (own, all) {
        case (_, .lockedOut(let until, let duration)):
            return .lockedOut(until: until, duration: duration, everyone: true)
        case (.lockedOut(let until, let duration), _):
            return .lockedOut(until: until, duration: duration, everyone: false)
        case (.allowed(let mine), .allowed(let theirs)):
            return .allowed(remaining: min(mine, theirs))
        }
    }

    /// A correct PIN from `peer`: its count and the overall one start again.
    public mutating func recordSuccess(of peer: MACAddress) {
        peers[peer] = nil
        overall.recordSuccess()
    }

    /// Nothing to keep: the file can go.
    public var isClear: Bool { overall.isClear && peers.values.allSatisfy(\.isClear) }

    /// What `lockout.json` holds, as of `now`; phones in address order, so equal states write
    /// equal files.
    public func saved(at now: Instant) -> Saved {
        Saved(
            overall: overall.saved(at: now),
            peers: peers.filter { !$0.value.isClear }.sorted { $0.key.octets.lexicographicallyPrecedes($1.key.octets) }
                .map { Saved.Peer(peer: $0.key.description, limiter: $0.value.saved(at: now)) }
        )
    }

    private mutating func forgetPeersBeyondTheLimit(keeping kept: MACAddress) {
        while peers.count > Self.maximumTrackedPeers {
            let candidates = peers.filter { $0.key != kept }
            guard
                let least = candidates.min(by: {
                    ($0.value.consecutiveFailures, $0.key.description) < (
                        $1.value.consecutiveFailures, $1.key.description
                    )
                })
            else { return }
            peers[least.key] = nil
        }
    }

    /// The contents of `lockout.json`.
    public struct Saved: Codable, Hashable, Sendable {
        public static let currentFormat = "awarebench-pairing-lockout/1"

        public var format: String
        /// All phones together.
        public var overall: PairingAttemptLimiter.Saved
        /// Each phone with wrong PINs to its name.
        public var peers: [Peer]

        public init(overall: PairingAttemptLimiter.Saved, peers: [Peer]) {
            format = Self.currentFormat
            self.overall = overall
            self.peers = peers
        }

        public struct Peer: Codable, Hashable, Sendable {
            /// The phone's NMI.
            public var peer: String
            public var limiter: PairingAttemptLimiter.Saved
        }
    }
}

// MARK: - LockoutOutcome

/// What a wrong PIN leads to.
public enum LockoutOutcome: Hashable, Sendable {
    /// The phone may enter `remaining` more wrong PINs before a lockout (its own or everyone's).
    case allowed(remaining: Int)
    /// Pairing is refused until `until`: for this phone, or for every phone (`everyone`).
    case lockedOut(until: Instant, duration: Interval, everyone: Bool)
}

// MARK: - LockoutFile

/// `lockout.json` in the accessory's state directory: written atomically after every wrong PIN,
/// every correct one that cleared a count, and every lockout that ended; removed by a factory
/// reset. A damaged file stops the accessory when it starts (exit 3), as a damaged pairing store
/// does: a lockout that vanished would be a way round it.
public struct LockoutFile: Sendable {
    public static let fileName = "lockout.json"

    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

    var path: String { directory.filePath(Self.fileName) }

    /// The saved lockout, or nil when there is none.
    public func read() throws(AccessoryStateError) -> PairingLockout.Saved? {
        guard
            let saved = try directory.readRecord(
                PairingLockout.Saved.self,
                from: Self.fileName,
                what: "the lockout JSON",
                format: \.format,
                currentFormat: PairingLockout.Saved.currentFormat
            )
        else { return nil }
        let limiters = [saved.overall] + saved.peers.map(\.limiter)
        guard
            limiters.allSatisfy({
                (0...PairingAttemptLimiter.Saved.maximumWrongPINs).contains($0.wrongPINs)
                    && (0...86_400).contains($0.lastLockoutSeconds ?? 0)
            })
        else {
            throw .corrupt(
                path: path,
                reason: "a count is outside 0...\(PairingAttemptLimiter.Saved.maximumWrongPINs) "
                    + "or a lockout outside 0...86400 s"
            )
        }
        if let bad = saved.peers.first(where: { MACAddress(string: $0.peer) == nil }) {
            throw .corrupt(path: path, reason: "the peer \"\(bad.peer.prefix(40))\" is not a MAC address")
        }
        return saved
    }

    /// Keeps `lockout`; an empty lockout removes the file.
    public func write(_ lockout: PairingLockout, at now: Instant) throws(AccessoryStateError) {
        do throws(DeviceStateError) {
            if lockout.isClear {
                _ = try directory.remove(Self.fileName)
                return
            }
            guard let value = try? JSONValueEncoder().encode(lockout.saved(at: now)) else {
                throw DeviceStateError.unusable(path: path, reason: "cannot encode the lockout")
            }
            try directory.writeAtomically(
                Data(value.serialized([.prettyPrinted, .sortedKeys]).utf8),
                to: Self.fileName
            )
        } catch {
            throw AccessoryStateError(error)
        }
    }
}

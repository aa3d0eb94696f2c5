import AwareCore
import AwareWire

/// Slows down someone guessing the PIN (profile `pairing.pin.maxWrongAttempts`,
/// `pairing.pin.lockoutSeconds`). A pure value: the caller hands it the time.
///
/// After `maxWrongAttempts` consecutive wrong PINs pairing locks for `lockoutSeconds`. Once a
/// lockout has ended, every further consecutive wrong PIN locks again, for twice the previous
/// lockout, up to 24 hours: a guesser gets one try per lockout, and the lockouts grow. A correct
/// PIN resets everything. `lockoutSeconds` 0 never locks.
public struct PairingAttemptLimiter: Hashable, Sendable {
    public static let maximumLockout = Interval.seconds(Int64(86_400))

    public let maxWrongAttempts: Int
    public let lockout: Interval

    /// Wrong PINs since the last correct one (or since the start).
    public private(set) var consecutiveFailures = 0
    /// The end of the current or last lockout; nil when none happened since the last success.
    public private(set) var lockedUntil: Instant?
    private var lastLockout: Interval?

    /// `maxWrongAttempts` below 1 is taken as 1, negative `lockoutSeconds` as 0: the profile
    /// validator already keeps them in 1-10 and 0-3600.
    public init(maxWrongAttempts: Int, lockoutSeconds: Int) {
        self.maxWrongAttempts = max(1, maxWrongAttempts)
        lockout = .seconds(Int64(max(0, min(lockoutSeconds, 86_400))))
    }

    public init(policy: PinPolicy) {
        self.init(maxWrongAttempts: policy.maxWrongAttempts, lockoutSeconds: policy.lockoutSeconds)
    }

    public func check(at now: Instant) -> LimiterCheck {
        if let lockedUntil, now < lockedUntil { return .lockedOut(until: lockedUntil) }
        return .allowed
    }

    /// Counts a wrong PIN at `now`. A wrong PIN during a lockout (an attempt that `check` should
    /// have refused) neither counts nor extends the lockout.
    public mutating func recordFailure(at now: Instant) -> LimiterOutcome {
        if let lockedUntil, now < lockedUntil, let lastLockout {
            return .lockedOut(until: lockedUntil, duration: lastLockout)
        }
        consecutiveFailures += 1
        let duration: Interval
        if let lastLockout {
            duration = min(lastLockout * 2, Self.maximumLockout)
        } else if consecutiveFailures >= maxWrongAttempts {
            duration = lockout
        } else {
            return .allowed(remaining: maxWrongAttempts - consecutiveFailures)
        }
        lastLockout = duration
        let until = now + duration
        lockedUntil = until
        return .lockedOut(until: until, duration: duration)
    }

    public mutating func recordSuccess() {
        consecutiveFailures = 0
        lockedUntil = nil
        lastLockout = nil
    }

    /// Nothing to remember: no wrong PIN since the last correct one.
    public var isClear: Bool { consecutiveFailures == 0 && lastLockout == nil }

    /// What survives a restart (``Saved``), as of `now`.
    public func saved(at now: Instant) -> Saved {
        Saved(
            wrongPINs: consecutiveFailures,
            lastLockoutSeconds: lastLockout.map { Int($0.nanoseconds / 1_000_000_000) },
            locked: lockedUntil.map { now < $0 } ?? false
        )
    }

    /// The limiter as it was saved, at `now` (a boot). A lockout that was in force when it was saved
    /// starts again in full: an accessory has no clock it can trust across a power cycle (the
    /// emulator's virtual time starts at 0 on every boot), and a restart must never shorten a
    /// lockout, or pulling the plug would be a way round it.
    public init(policy: PinPolicy, restoring saved: Saved, at now: Instant) {
        self.init(policy: policy)
        consecutiveFailures = max(0, min(saved.wrongPINs, Saved.maximumWrongPINs))
        lastLockout = saved.lastLockoutSeconds.map { .seconds(Int64(max(0, min($0, 86_400)))) }
        if saved.locked { lockedUntil = now + (lastLockout ?? lockout) }
    }

    /// A limiter's state in the accessory's `lockout.json` (docs/guides/running-the-accessory.md).
    public struct Saved: Codable, Hashable, Sendable {
        /// More wrong PINs than anyone can enter (one a second for ten days would be 864,000, and
        /// lockouts of up to a day come between them); a larger count is not one this program wrote.
        public static let maximumWrongPINs = 1_000_000

        /// Wrong PINs in a row.
        public var wrongPINs: Int
        /// The last lockout's length; nil when none happened since the last correct PIN.
        public var lastLockoutSeconds: Int?
        /// A lockout was in force.
        public var locked: Bool

        public init(wrongPINs: Int, lastLockoutSeconds: Int?, locked: Bool) {
            self.wrongPINs = wrongPINs
            self.lastLockoutSeconds = lastLockoutSeconds
            self.locked = locked
        }
    }
}

// MARK: - LimiterCheck

/// Whether a pairing attempt may start now.
public enum LimiterCheck: Hashable, Sendable {
    case allowed
    case lockedOut(until: Instant)
}

// MARK: - LimiterOutcome

/// What a wrong PIN leads to.
public enum LimiterOutcome: Hashable, Sendable {
    /// Pairing stays open for `remaining` more wrong PINs before a lockout.
    case allowed(remaining: Int)
    /// Pairing is refused until `until`, `duration` after the wrong PIN that locked it.
    case lockedOut(until: Instant, duration: Interval)
}

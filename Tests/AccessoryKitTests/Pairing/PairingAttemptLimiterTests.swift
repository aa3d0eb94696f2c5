import AwareCore
import AwareWire
import Testing

@testable import AccessoryKit

/// The drone profile's policy: 3 wrong PINs, then 60 s, then doubling per further wrong PIN.
@Suite struct PairingAttemptLimiterTests {
    static func at(_ seconds: Int64) -> Instant { .zero + .seconds(seconds) }

    static var drone: PairingAttemptLimiter {
        PairingAttemptLimiter(policy: PinPolicy(length: 6, maxWrongAttempts: 3, lockoutSeconds: 60))
    }

    @Test func threeWrongPINsLockForSixtySecondsThenEachFurtherOneDoubles() {
        var limiter = Self.drone
        #expect(limiter.check(at: Self.at(0)) == .allowed)
        #expect(limiter.recordFailure(at: Self.at(10)) == .allowed(remaining: 2))
        #expect(limiter.recordFailure(at: Self.at(20)) == .allowed(remaining: 1))
        #expect(limiter.check(at: Self.at(21)) == .allowed)
        #expect(limiter.recordFailure(at: Self.at(30)) == .lockedOut(until: Self.at(90), duration: .seconds(60)))
        #expect(limiter.check(at: Self.at(30)) == .lockedOut(until: Self.at(90)))
        #expect(limiter.check(at: Self.at(89)) == .lockedOut(until: Self.at(90)))
        #expect(limiter.check(at: Self.at(90)) == .allowed)
        // One try after a lockout: wrong again locks for twice as long.
        #expect(limiter.recordFailure(at: Self.at(100)) == .lockedOut(until: Self.at(220), duration: .seconds(120)))
        #expect(limiter.check(at: Self.at(219)) == .lockedOut(until: Self.at(220)))
        #expect(limiter.recordFailure(at: Self.at(220)) == .lockedOut(until: Self.at(460), duration: .seconds(240)))
        #expect(limiter.consecutiveFailures == 5)
    }

    @Test func aCorrectPINResetsEverything() {
        var limiter = Self.drone
        _ = limiter.recordFailure(at: Self.at(0))
        _ = limiter.recordFailure(at: Self.at(1))
        _ = limiter.recordFailure(at: Self.at(2))
        _ = limiter.recordFailure(at: Self.at(62))
        limiter.recordSuccess()
        #expect(limiter == Self.drone)
        #expect(limiter.check(at: Self.at(63)) == .allowed)
        #expect(limiter.recordFailure(at: Self.at(63)) == .allowed(remaining: 2))
        #expect(limiter.recordFailure(at: Self.at(64)) == .allowed(remaining: 1))
        #expect(limiter.recordFailure(at: Self.at(65)) == .lockedOut(until: Self.at(125), duration: .seconds(60)))
    }

    @Test func aCorrectPINBetweenWrongOnesStartsTheCountAgain() {
        var limiter = Self.drone
        #expect(limiter.recordFailure(at: Self.at(0)) == .allowed(remaining: 2))
        #expect(limiter.recordFailure(at: Self.at(1)) == .allowed(remaining: 1))
        limiter.recordSuccess()
        #expect(limiter.recordFailure(at: Self.at(2)) == .allowed(remaining: 2))
    }

    @Test func aWrongPINDuringALockoutNeitherCountsNorExtends() {
        var limiter = Self.drone
        for second in 0..<3 { _ = limiter.recordFailure(at: Self.at(Int64(second))) }
        #expect(limiter.recordFailure(at: Self.at(30)) == .lockedOut(until: Self.at(62), duration: .seconds(60)))
        #expect(limiter.consecutiveFailures == 3)
        #expect(limiter.check(at: Self.at(62)) == .allowed)
    }

    @Test func lockoutsStopGrowingAt24Hours() {
        var limiter = PairingAttemptLimiter(maxWrongAttempts: 1, lockoutSeconds: 3600)
        var now = Self.at(0)
        var durations: [Int64] = []
        for _ in 0..<8 {
            guard case .lockedOut(let until, let duration) = limiter.recordFailure(at: now) else {
                Issue.record("expected a lockout")
                return
            }
            durations.append(duration.nanoseconds / 1_000_000_000)
            now = until
        }
        #expect(durations == [3600, 7200, 14_400, 28_800, 57_600, 86_400, 86_400, 86_400])
    }

    @Test func aZeroLockoutNeverLocks() {
        var limiter = PairingAttemptLimiter(maxWrongAttempts: 1, lockoutSeconds: 0)
        #expect(limiter.recordFailure(at: Self.at(5)) == .lockedOut(until: Self.at(5), duration: .zero))
        #expect(limiter.check(at: Self.at(5)) == .allowed)
        #expect(limiter.recordFailure(at: Self.at(5)) == .lockedOut(until: Self.at(5), duration: .zero))
    }
}

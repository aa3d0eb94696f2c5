import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareTestSupport
import AwareWire
import ConformanceKit
import Foundation
import Testing

/// Wrong PINs are counted per phone and over all phones, and the counts survive a restart (issue
/// 21, finding 7: the lockout lived in memory and was global, so a reboot or a kill -9 cleared it,
/// and three abandoned exchanges from one phone locked pairing for every phone).
@Suite struct PairingLockoutTests {
    static let policy = PinPolicy(length: 6, maxWrongAttempts: 3, lockoutSeconds: 60)
    static let a = MACAddress(0x02, 0xA0, 0, 0, 0, 1)
    static let b = MACAddress(0x02, 0xB0, 0, 0, 0, 2)
    static func at(_ seconds: Int64) -> Instant { .zero + .seconds(seconds) }

    @Test func onePhonesWrongPINsLockOnlyThatPhone() {
        var lockout = PairingLockout(policy: Self.policy)
        #expect(lockout.recordFailure(of: Self.a, at: Self.at(1)) == .allowed(remaining: 2))
        #expect(lockout.recordFailure(of: Self.a, at: Self.at(2)) == .allowed(remaining: 1))
        #expect(
            lockout.recordFailure(of: Self.a, at: Self.at(3))
                == .lockedOut(until: Self.at(63), duration: .seconds(60), everyone: false)
        )
        #expect(lockout.check(Self.a, at: Self.at(4)) == .lockedOut(until: Self.at(63)))
        #expect(lockout.check(Self.b, at: Self.at(4)) == .allowed)
        #expect(lockout.check(Self.a, at: Self.at(63)) == .allowed)
    }

    /// An NMI costs nothing to change: 3 × 3 wrong PINs from any phones lock everyone.
    @Test func wrongPINsFromChangingAddressesLockEveryone() {
        var lockout = PairingLockout(policy: Self.policy)
        var last: LockoutOutcome?
        for index in 0..<9 {
            let peer = MACAddress(0x02, 0xCC, 0, 0, 0, UInt8(index))
            last = lockout.recordFailure(of: peer, at: Self.at(Int64(index)))
            if index < 8 { #expect(last == .allowed(remaining: min(2, 8 - index)), "wrong PIN \(index + 1)") }
        }
        #expect(last == .lockedOut(until: Self.at(68), duration: .seconds(60), everyone: true))
        #expect(lockout.check(Self.b, at: Self.at(9)) == .lockedOut(until: Self.at(68)))
    }

    @Test func aCorrectPINClearsThePhonesCountAndTheOverallOne() {
        var lockout = PairingLockout(policy: Self.policy)
        _ = lockout.recordFailure(of: Self.a, at: Self.at(1))
        _ = lockout.recordFailure(of: Self.b, at: Self.at(2))
        lockout.recordSuccess(of: Self.a)
        #expect(lockout.overall.consecutiveFailures == 0)
        #expect(lockout.peers[Self.a] == nil)
        #expect(lockout.peers[Self.b]?.consecutiveFailures == 1)
        lockout.recordSuccess(of: Self.b)
        #expect(lockout.isClear)
    }

    /// A lockout in force when the accessory stopped starts again in full at the next boot (the
    /// clock starts at 0 again); counts below the limit carry over; one that had ended stays ended.
    @Test func aRestartKeepsTheCountsAndRestartsALockoutInForce() {
        var lockout = PairingLockout(policy: Self.policy)
        for second in 1...3 { _ = lockout.recordFailure(of: Self.a, at: Self.at(Int64(second))) }
        _ = lockout.recordFailure(of: Self.b, at: Self.at(4))
        let saved = lockout.saved(at: Self.at(10))
        #expect(saved.overall == .init(wrongPINs: 4, lastLockoutSeconds: nil, locked: false))
        #expect(saved.peers.map(\.peer) == [Self.a.description, Self.b.description])
        #expect(saved.peers[0].limiter == .init(wrongPINs: 3, lastLockoutSeconds: 60, locked: true))

        let restored = PairingLockout(policy: Self.policy, restoring: saved, at: .zero)
        #expect(restored.check(Self.a, at: Self.at(59)) == .lockedOut(until: Self.at(60)))
        #expect(restored.check(Self.b, at: .zero) == .allowed)
        var after = restored
        // A's next wrong PIN after the lockout doubles it; B's third locks B.
        #expect(
            after.recordFailure(of: Self.a, at: Self.at(61))
                == .lockedOut(until: Self.at(181), duration: .seconds(120), everyone: false)
        )
        _ = after.recordFailure(of: Self.b, at: Self.at(62))
        #expect(
            after.recordFailure(of: Self.b, at: Self.at(63))
                == .lockedOut(until: Self.at(123), duration: .seconds(60), everyone: false)
        )
        // Saved after A's lockout ran out, A is no longer locked at the next boot.
        let later = after.saved(at: Self.at(200))
        #expect(later.peers.first { $0.peer == Self.a.description }?.limiter.locked == false)
    }

    @Test func phonesBeyondTheLimitAreForgottenFewestWrongPINsFirst() {
        var lockout = PairingLockout(policy: Self.policy)
        let guesser = MACAddress(0x02, 0xEE, 0, 0, 0, 0)
        _ = lockout.recordFailure(of: guesser, at: Self.at(0))
        _ = lockout.recordFailure(of: guesser, at: Self.at(0))
        for index in 0..<PairingLockout.maximumTrackedPeers {
            lockout.recordSuccess(of: Self.a)  // keeps the overall count from locking everyone
            _ = lockout.recordFailure(
                of: MACAddress(0x02, 0xDD, 0, 0, UInt8(index >> 8), UInt8(index & 0xFF)),
                at: .zero
            )
        }
        #expect(lockout.peers.count == PairingLockout.maximumTrackedPeers)
        #expect(lockout.peers[guesser]?.consecutiveFailures == 2)
    }

    // MARK: - lockout.json

    static func temporaryDirectory() throws -> StateDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-lockout-\(UUID().uuidString.prefix(8))"
        )
        .path
        return try StateDirectory(path: path)
    }

    @Test func theFileHoldsTheDocumentedMembersAndGoesWhenNothingIsLeft() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let file = LockoutFile(directory: directory)
        var lockout = PairingLockout(policy: Self.policy)
        _ = lockout.recordFailure(of: Self.a, at: Self.at(1))
        try file.write(lockout, at: Self.at(1))
        let text = try String(contentsOfFile: directory.filePath(LockoutFile.fileName), encoding: .utf8)
        let expected = """
            {
              "format": "awarebench-pairing-lockout/1",
              "overall": {
                "locked": false,
                "wrongPINs": 1
              },
              "peers": [
                {
                  "limiter": {
                    "locked": false,
                    "wrongPINs": 1
                  },
                  "peer": "02:a0:00:00:00:01"
                }
              ]
            }
            """
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
        #expect(try file.read() == lockout.saved(at: Self.at(1)))
        lockout.recordSuccess(of: Self.a)
        try file.write(lockout, at: Self.at(2))
        #expect(!FileManager.default.fileExists(atPath: directory.filePath(LockoutFile.fileName)))
        #expect(try file.read() == nil)
    }

    @Test(arguments: [
        ("{", "not valid JSON"),
        (
            #"{"format":"awarebench-pairing-lockout/1","overall":{"wrongPINs":-1,"locked":false},"peers":[]}"#,
            "outside 0...1000000"
        ),
        (
            #"{"format":"awarebench-pairing-lockout/1","overall":{"wrongPINs":1,"locked":false},"peers":[{"peer":"x","limiter":{"wrongPINs":1,"locked":false}}]}"#,
            "not a MAC address"
        ),
        (#"{"format":"something-else/9","overall":{"wrongPINs":1,"locked":false},"peers":[]}"#, "something-else/9"),
        (#"[1,2]"#, "not the lockout JSON"),
        (
            #"{"format":"awarebench-pairing-lockout/1","overall":{"wrongPINs":9223372036854775807,"locked":true},"peers":[]}"#,
            "outside 0...1000000"
        ),
    ])
    func aDamagedFileIsRefusedAndLeftAsItIs(contents: String, saying: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let path = directory.filePath(LockoutFile.fileName)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect {
            try LockoutFile(directory: directory).read()
        } throws: { error in
            "\(error)".contains(saying) && "\(error)".contains(path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
    }

    /// The accessory refuses to boot on a damaged lockout (exit 3 in accessory-emu), and a factory
    /// reset removes the lockout with the pairings.
    @Test func bootRefusesADamagedLockoutAndAFactoryResetRemovesIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-lockout-\(UUID().uuidString.prefix(8))"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let state = try AccessoryStateDirectory(path: path)
        let file = state.directory.filePath(LockoutFile.fileName)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        #expect(throws: AccessoryStateError.self) {
            try state.boot(proposedAddress: Self.a, profileFixesAddress: false)
        }
        #expect(try state.readIdentity() == nil, "the boot was not counted")
        _ = try state.factoryReset()
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try state.boot(proposedAddress: Self.a, profileFixesAddress: false).boots == 1)
    }

    // MARK: - On the air

    /// Three wrong PINs from one phone lock that phone, not another; a restart (the accessory
    /// stops and starts on the same state directory) keeps it locked, for a whole lockout again.
    @Test func aLockedPhoneStaysLockedAcrossARestartAndOthersPairMeanwhile() throws {
        let bench = try PairedDeviceLimitTests.Bench(maxPairedDevices: 8, whenFull: .refuse)
        let (guesser, guesserResult) = try bench.join(seed: 41)
        for attempt in 1...3 {
            let outcome = bench.pair(guesser, guesserResult, pin: "000001")
            #expect(outcome?.reason == "sae-confirm-mismatch", "wrong PIN \(attempt): \(String(describing: outcome))")
        }
        #expect(bench.events(named: "pairing_locked").first?.contains(#""scope":"peer""#) == true)
        let (other, otherResult) = try bench.join(seed: 42)
        #expect(bench.pair(other, otherResult)?.result == .paired, "another phone pairs while the guesser is locked")

        try bench.restart()
        let afterRestart = try bench.discover(guesser)
        #expect(bench.pair(guesser, afterRestart)?.reason == "locked-out", "still locked after the restart")
        _ = bench.run(.seconds(61)) { false }
        let recovered = try bench.discover(guesser)
        #expect(bench.pair(guesser, recovered)?.result == .paired, "paired once the lockout ran out")
        #expect(!FileManager.default.fileExists(atPath: bench.directory + "/" + LockoutFile.fileName))
    }
}

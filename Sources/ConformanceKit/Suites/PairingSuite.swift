import AwareCore
import AwareProtocol
import AwareWire

/// The pairing and reconnect test groups, `WA/PAIR/*` and `WA/RECON/*`: PIN bootstrapping and
/// PASN pairing as an iPhone does it, the refusals an accessory owes a wrong PIN, a wrong method
/// or cookie, a replay or one phone too many, protected frames and NIKs after pairing, and
/// reconnecting without a PIN across restarts, NMI changes and factory resets (issue 4;
/// nan-wire-reference.md 2.11-2.18, 3).
///
/// Every test names the emulator faults written to break it (`brokenBy`, and the shared steps it
/// takes), checked by `aware-conform selftest`.
public enum PairingSuite {
    /// Bootstrapping with one comeback (about a second) and PASN with SAE.
    static let pairingTimeout = Interval.seconds(20)
    /// The accessory hears the phone's last frame, and reports it, a moment after the phone decided.
    static let settleTime = Interval.milliseconds(300)
    /// The lockout tests' variant: few wrong PINs, a short lockout, so that real time stays short.
    static let lockoutAttempts = 2
    static let lockoutSeconds = 3
    static let secondPhoneAddress = MACAddress(0x02, 0xB1, 0x00, 0x00, 0x00, 0x02)
    static let rotatedNMI = MACAddress(0x02, 0xA5, 0x5E, 0x00, 0x00, 0x01)
    static let cachingOff = Builder.pairingVariant([("cache", #"{"npk": false, "nik": false}"#)])

    /// The tests, run against `target` with `faults` switched on in the accessory.
    public static func tests(target: any AccessoryTarget, faults: [String] = []) throws -> [ConformanceTest] {
        let suite = Builder(target: target, faults: faults)
        let groups: [() throws -> [ConformanceTest]] = [
            suite.setup, suite.refusals, suite.protection, suite.identityKeys, suite.reconnect, suite.phones,
            suite.reverseRole,
        ]
        var tests: [ConformanceTest] = []
        for group in groups { tests += try group() }
        return tests
    }
}

extension SharedStep {
    /// Every test that pairs with the PIN the accessory shows.
    static let pairing = SharedStep(
        "pairing",
        after: [.discovery],
        brokenBy: ["sae-wrong-pin"],
        because: "an accessory whose SAE uses another PIN than the one it displays never completes a pairing"
    )
    /// Every test that gives up a pairing attempt (a wrong PIN, an abort) and tries again.
    static let retriedPairing = SharedStep(
        "retried pairing",
        after: [.discovery],
        brokenBy: ["ignore-pasn-abort"],
        because: "an accessory that stays in the exchange the phone aborted does not answer the next attempt"
    )
    /// Every test that talks to the accessory after pairing with it.
    static let pairedExchange = SharedStep(
        "paired exchange",
        after: [.pairing],
        brokenBy: ["no-frame-protection"],
        because: "a paired phone drops the accessory's unprotected unicast frames (nan-wire-reference.md 3.8)"
    )
    /// Every test in which the phone finds its paired accessory again by its NIRA.
    static let niraReconnect = SharedStep(
        "NIRA reconnect",
        after: [.pairedExchange],
        brokenBy: ["no-pairing-advertisement", "stale-nira-tag"],
        because: "leaving the pairing advertisement out of publishes leaves the NIRA out with it, and a NIRA whose "
            + "tag does not resolve names no paired accessory: the phone cannot find it to reconnect"
    )
}

import AccessoryKit
import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit
import Testing

/// What made pairings on the socket air end "paired, but the accessory sent no NIK" on a loaded
/// host, replayed on the simulated air: PASN frame 3 late (it waited for a discovery window on
/// another channel to end) or lost (sent as the phone's window ended, to an accessory whose
/// window ended a few milliseconds later).
@Suite struct PairingFrameOrderTests {
    /// Holds back or loses the phone's PASN frame 3.
    final class Frame3Impairer: FrameImpairer {
        let phone: MACAddress
        let delay: Interval?
        /// Transmissions of frame 3 to lose, the air's own retries included.
        var losses: Int
        var transmissions = 0

        init(phone: MACAddress, delay: Interval? = nil, losses: Int = 0) {
            self.phone = phone
            self.delay = delay
            self.losses = losses
        }

        /// An Authentication frame (subtype 11) from the phone with transaction sequence 3.
        func isFrame3(_ frame: [UInt8]) -> Bool {
            frame.count >= 28 && frame[0] == 0xB0 && MACAddress(frame[10..<16]) == phone && frame[26] == 3
                && frame[27] == 0
        }

        func holdBack(_ frame: [UInt8], from origin: FrameOrigin, at time: Instant) -> Interval? {
            isFrame3(frame) ? delay : nil
        }

        func impairment(
            of frame: [UInt8],
            from origin: FrameOrigin,
            attempt: Int,
            at time: Instant
        )
            -> FrameImpairment
        {
            guard isFrame3(frame) else { return .intact }
            transmissions += 1
            return transmissions <= losses ? .lost : .intact
        }
    }

    /// Frame 3 reaches the accessory 600 ms late, after the next discovery window: the phone's
    /// NIK waits for it. Sent in that window, the NIK came first, to an accessory without the
    /// NM-TK, which dropped it (after acknowledging it, so nothing sent it again).
    @Test func theNIKWaitsForFrame3() throws {
        let bench = try PairingEndToEndTests.Bench()
        let result = try bench.discover()
        let impairer = Frame3Impairer(phone: bench.phone.address, delay: .milliseconds(600))
        bench.air.impairer = impairer
        let outcome = try #require(bench.pair(result))
        #expect(impairer.transmissions >= 1, "frame 3 was held back")
        #expect(outcome.result == .paired, "\(outcome)")
        #expect(outcome.keysCached, "\(outcome.detail)")
        #expect(bench.names().contains("nik_exchanged"))
        #expect(!bench.names().contains("frame_dropped"), "\(bench.names())")
    }

    /// Every air transmission of frame 3 is lost once (the simulated air's seven attempts): the
    /// phone sends it again, as the data plane does a data frame, and the pairing completes on
    /// both sides. Without that the accessory timed out waiting for frame 3 while the phone
    /// counted itself paired.
    @Test func aLostFrame3IsSentAgain() throws {
        let bench = try PairingEndToEndTests.Bench()
        let result = try bench.discover()
        let impairer = Frame3Impairer(phone: bench.phone.address, losses: 7)
        bench.air.impairer = impairer
        let outcome = try #require(bench.pair(result))
        #expect(impairer.transmissions == 8, "seven lost, the eighth heard")
        #expect(outcome.result == .paired, "\(outcome)")
        #expect(outcome.keysCached, "\(outcome.detail)")
        #expect(bench.names().contains("paired") && bench.names().contains("nik_exchanged"), "\(bench.names())")
        #expect(!bench.names().contains("pairing_failed"))
    }

    /// The phone's frame 3 never arrives (a wrong PIN's abort, lost), so the accessory's attempt
    /// still waits for it when the phone starts over with bootstrapping. The accessory ends the
    /// abandoned attempt then (its spent guess counts), so the new bootstrapping survives: left
    /// to its one-second timer, the old attempt took the new bootstrapping down with it, and the
    /// phone's comeback was refused with reason 13 (seen on the socket air when a second run's
    /// frame 3 was refused as a replay).
    @Test func aBootstrapAfterAnAbandonedAttemptIsNotTakenDownByItsTimeout() throws {
        let bench = try PairingEndToEndTests.Bench()
        let result = try bench.discover()
        let impairer = Frame3Impairer(phone: bench.phone.address, losses: Int.max)
        bench.air.impairer = impairer
        // The displayed PIN with its last digit changed: surely wrong.
        let wrongPIN: () -> String? = { [unowned bench] in
            guard let digits = bench.displayed.last?.pin.digits, let last = digits.last?.wholeNumberValue else {
                return nil
            }
            return String(digits.dropLast()) + String((last + 5) % 10)
        }
        let attempt = bench.pair(result, pin: wrongPIN)
        let first = try #require(attempt)
        #expect(first.result == .failed, "a wrong PIN: \(first)")
        #expect(impairer.transmissions >= 1, "the phone's frame 3 went out and was lost")
        #expect(!bench.names().contains("pairing_failed"), "the accessory still waits: \(bench.names())")
        impairer.losses = impairer.transmissions
        let second = try #require(bench.pair(result))
        #expect(second.result == .paired, "\(second)")
        #expect(!bench.names().contains("bootstrap_rejected"), "\(bench.names())")
        let failures = bench.events.filter { $0.name == "pairing_failed" }
        #expect(failures.count == 1, "the abandoned attempt ended once, as aborted: \(bench.names())")
    }
}

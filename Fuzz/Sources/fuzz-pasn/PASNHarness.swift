import AwareCore
import AwareProtocol
import AwareWire
import FuzzSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One PASN machine of hostap session A's pairing (the phone's initiator, or the
/// accessory's responder), fed the frames of a ``FrameSequence`` under virtual time, its
/// timer firing when a pause runs past it.
///
/// Setup bit 0 picks the responder. Both run with the session's PIN and recorded randomness,
/// so the only exchange either can complete is the recorded one: a completion must give the
/// session's TK and NPK. Anything else means a frame 2 (or 3) that the session's peer did not
/// send passed the SAE confirm and the MIC.
struct PASNHarness {
    let isResponder: Bool
    var initiator: PASNInitiator
    var responder: PASNResponder
    var rng = SeededGenerator(seed: 1)
    var now = Instant.zero
    var timer: Instant?
    /// Whether the responder took a frame 1 (events before it are `.frame1`).
    var responderStarted = false
    var completions = 0
    var finishedBefore = false
    /// `AWAREBENCH_FUZZ_TRACE=1`: print what the machine reports.
    let tracing = getenv("AWAREBENCH_FUZZ_TRACE") != nil

    init(setup: UInt8) {
        isResponder = setup & 0x01 != 0
        let password = PASNCredential.password(SessionPASN.pin)
        initiator = PASNInitiator(configuration: SessionPASN.phoneConfiguration, credential: password)
        responder = PASNResponder(configuration: SessionPASN.accessoryConfiguration, credential: password)
    }

    mutating func run(_ sequence: FrameSequence) {
        if !isResponder {
            apply(initiator.handle(.start(SessionPASN.phoneRandomness), now: now, rng: &rng))
        }
        for record in sequence.records {
            now = now + Interval(nanoseconds: record.pauseNanoseconds)
            if let due = timer, due <= now {
                timer = nil
                apply(
                    isResponder
                        ? responder.handle(.timerFired, now: now, rng: &rng)
                        : initiator.handle(.timerFired, now: now, rng: &rng)
                )
            }
            guard
                let frame = ReceivedFrame(
                    bytes: record.frame,
                    info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: now)
                )
            else { continue }
            if isResponder {
                let event: PASNResponder.Event =
                    responderStarted ? .received(frame) : .frame1(frame, SessionPASN.accessoryRandomness)
                let actions = responder.handle(event, now: now, rng: &rng)
                if !actions.isEmpty { responderStarted = true }
                apply(actions)
            } else {
                apply(initiator.handle(.received(frame), now: now, rng: &rng))
            }
        }
    }

    private var isFinished: Bool { isResponder ? responder.isFinished : initiator.isFinished }

    private mutating func apply(_ actions: [PASNAction]) {
        for action in actions {
            if tracing, case .notify(let notification) = action { print("\(now) \(notification)") }
            switch action {
            case .arm(_, let at): timer = at
            case .cancel: timer = nil
            case .transmit(let request):
                if (try? IEEE80211Frame(bytes: request.frame)) == nil {
                    fuzzFailure("the machine sent a frame that does not decode: \(HexString.encode(request.frame))")
                }
            case .notify(.completed(let result)):
                completions += 1
                if completions > 1 || finishedBefore { fuzzFailure("a second completion, or one after the end") }
                if result.tk != SessionPASN.tk || result.npk != SessionPASN.npk {
                    fuzzFailure("completed with keys other than the session's: a forged frame passed")
                }
            case .notify(.failed), .notify(.frameSent): break
            }
        }
        if isFinished { finishedBefore = true }
    }
}

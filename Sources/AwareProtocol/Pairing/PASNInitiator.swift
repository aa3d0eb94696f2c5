import AwareCore
import AwareCrypto
import AwareWire

/// The PASN initiator, the phone's side of NAN pairing (nan-wire-reference.md 3.1, 3.4, 3.7):
/// frame 1 out, frame 2 checked, frame 3 out. Sans-I/O, in the manner of swift-nio-ssh's
/// connection state machine: events in, actions out, one state value per step.
///
/// ```swift
/// var initiator = PASNInitiator(configuration: configuration, credential: .password(Array("482915".utf8)))
/// var actions = initiator.handle(.start(nil), now: now, rng: &rng)   // [.transmit(frame 1), .arm(.awaitingFrame, at: ...), ...]
/// actions = initiator.handle(.received(frame2), now: later, rng: &rng) // [.cancel(.awaitingFrame), .transmit(frame 3), .notify(.completed(...))]
/// ```
public struct PASNInitiator: Sendable {
    public let configuration: PASNConfiguration
    public let credential: PASNCredential
    var state: State = .idle

    enum State: Sendable {
        case idle
        case awaitingFrame2(AwaitingFrame2State)
        case completed
        case failed
    }

    public enum Event: Hashable, Sendable {
        /// Sends frame 1; known random values replay a recorded exchange.
        case start(PASNRandomness?)
        case received(ReceivedFrame)
        case timerFired
        /// The owner gives up (the person cancelled): an abort frame tells the responder.
        case abort
    }

    public init(configuration: PASNConfiguration, credential: PASNCredential) {
        self.configuration = configuration
        self.credential = credential
    }

    /// True once the exchange completed or failed.
    public var isFinished: Bool {
        switch state {
        case .completed, .failed: true
        case .idle, .awaitingFrame2: false
        }
    }

    public var akm: PASNAKM {
        if case .cachedKey(let key) = credential { key.akm } else { .sae }
    }

    public mutating func handle(
        _ event: Event,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [PASNAction] {
        switch (state, event) {
        case (.idle, .start(let randomness)):
            return start(randomness: randomness, now: now, rng: &rng)
        case (.awaitingFrame2(var waiting), .received(let frame)):
            guard let frame2 = waiting.frame2(in: frame, configuration: configuration) else { return [] }
            var actions: [PASNAction] = [.cancel(.awaitingFrame)]
            switch waiting.complete(with: frame2, configuration: configuration, credential: credential) {
            case .success(let (frame3, result)):
                state = .completed
                actions.append(.transmit(PASNFrames.request(frame3, configuration: configuration)))
                actions.append(.notify(.frameSent(sequence: 3, attempt: 1)))
                actions.append(.notify(.completed(result)))
            case .failure(let failure):
                state = .failed
                // Tell the responder at once rather than leave it waiting for frame 3; a wrong PIN
                // is then counted without delay (hostap `nan_pairing_abort`).
                actions.append(.transmit(PASNFrames.request(abortFrame(), configuration: configuration)))
                actions.append(.notify(.failed(failure)))
            }
            return actions
        case (.awaitingFrame2(var waiting), .timerFired):
            guard waiting.transmissions < configuration.maxFrame1Transmissions else {
                state = .failed
                return [.notify(.failed(.timeout(waitingFor: 2)))]
            }
            waiting.transmissions += 1
            state = .awaitingFrame2(waiting)
            return [
                .transmit(waiting.frame1Request),
                .notify(.frameSent(sequence: 1, attempt: waiting.transmissions)),
                .arm(.awaitingFrame, at: now + configuration.responseTimeout),
            ]
        case (.awaitingFrame2, .abort):
            state = .failed
            return [
                .cancel(.awaitingFrame), .transmit(PASNFrames.request(abortFrame(), configuration: configuration)),
                .notify(.failed(.aborted)),
            ]
        case (.idle, .abort):
            state = .failed
            return [.notify(.failed(.aborted))]
        default:
            return []
        }
    }

    private mutating func start(
        randomness: PASNRandomness?,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [PASNAction] {
        switch AwaitingFrame2State.make(
            configuration: configuration,
            credential: credential,
            randomness: randomness,
            rng: &rng
        ) {
        case .success(let waiting):
            state = .awaitingFrame2(waiting)
            return [
                .transmit(waiting.frame1Request), .notify(.frameSent(sequence: 1, attempt: 1)),
                .arm(.awaitingFrame, at: now + configuration.responseTimeout),
            ]
        case .failure(let failure):
            state = .failed
            return [.notify(.failed(failure))]
        }
    }

    /// Frame 3 with a failure status and our NAN element only (3.4.1: "Status != 0: header +
    /// extra IEs only").
    private func abortFrame() -> PASNAuthenticationFrame {
        PASNAuthenticationFrame(
            transactionSequence: 3,
            statusCode: PASNStatusCode.unspecifiedFailure,
            elements: [.nan(NANElement(attributes: configuration.nanAttributes))]
        )
    }
}

extension PASNInitiator: ProtocolMachine {
    public static func timerEvent(_: PASNTimer) -> Event { .timerFired }
}

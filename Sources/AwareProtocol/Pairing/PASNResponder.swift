import AwareCore
import AwareCrypto
import AwareWire

/// The PASN responder, the accessory's side of NAN pairing (nan-wire-reference.md 3.1, 3.4,
/// 3.7): frame 1 checked, frame 2 out, frame 3 checked. Sans-I/O like ``PASNInitiator``.
///
/// The owner reads frame 1 first (``PASNFrame1Summary``) and decides: a pairing setup gets
/// the PIN shown to the person, a verification the cached key its NPKID names, and anything
/// else a refusal (``rejection(of:status:configuration:)``).
public struct PASNResponder: Sendable {
    public let configuration: PASNConfiguration
    public let credential: PASNCredential
    var state: State = .idle

    enum State: Sendable {
        case idle
        case awaitingFrame3(AwaitingFrame3State)
        case completed
        case failed
    }

    public enum Event: Hashable, Sendable {
        /// Frame 1 of the exchange; known random values replay a recorded exchange.
        case frame1(ReceivedFrame, PASNRandomness?)
        /// A later frame from the peer: frame 3, or frame 1 again.
        case received(ReceivedFrame)
        case timerFired
        case abort
    }

    public init(configuration: PASNConfiguration, credential: PASNCredential) {
        self.configuration = configuration
        self.credential = credential
    }

    public var isFinished: Bool {
        switch state {
        case .completed, .failed: true
        case .idle, .awaitingFrame3: false
        }
    }

    /// Whether our SAE confirm went out: from then on the peer has tested a PIN guess, and an
    /// exchange that does not complete counts as a wrong PIN (an attacker who never sends
    /// frame 3 still learns from our confirm whether its guess was right).
    public var confirmSent: Bool {
        switch state {
        case .awaitingFrame3(let waiting): waiting.sae != nil
        case .idle, .completed, .failed: false
        }
    }

    public mutating func handle(
        _ event: Event,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [PASNAction] {
        switch (state, event) {
        case (.idle, .frame1(let frame, let randomness)):
            guard case .pasnAuthentication(let frame1) = frame.frame.body, frame1.transactionSequence == 1 else {
                return []
            }
            switch AwaitingFrame3State.make(
                frame1: frame1,
                configuration: configuration,
                credential: credential,
                randomness: randomness,
                rng: &rng
            ) {
            case .success(let (waiting, frame2)):
                state = .awaitingFrame3(waiting)
                return [
                    .transmit(frame2), .notify(.frameSent(sequence: 2, attempt: 1)),
                    .arm(.awaitingFrame, at: now + configuration.responseTimeout),
                ]
            case .failure(let refusal):
                state = .failed
                return [
                    .transmit(Self.rejection(status: refusal.status, configuration: configuration)),
                    .notify(.failed(refusal.failure)),
                ]
            }
        case (.awaitingFrame3(let waiting), .received(let frame)):
            guard frame.frame.header.address1 == configuration.ownAddress,
                frame.frame.header.address2 == configuration.peerAddress,
                case .pasnAuthentication(let pasn) = frame.frame.body
            else { return [] }
            if pasn.transactionSequence == 1 {
                // The initiator did not hear frame 2 and sent frame 1 again: answer it again.
                return pasn.wireBytes == waiting.frame1Body ? [.transmit(waiting.frame2Request)] : []
            }
            guard pasn.transactionSequence == 3 else { return [] }
            switch waiting.complete(with: pasn, configuration: configuration, credential: credential) {
            case .success(let result):
                state = .completed
                return [.cancel(.awaitingFrame), .notify(.completed(result))]
            case .failure(let failure):
                state = .failed
                return [.cancel(.awaitingFrame), .notify(.failed(failure))]
            }
        case (.awaitingFrame3, .timerFired):
            state = .failed
            return [.notify(.failed(.timeout(waitingFor: 3)))]
        case (.awaitingFrame3, .abort):
            state = .failed
            return [.cancel(.awaitingFrame), .notify(.failed(.aborted))]
        case (.idle, .abort):
            state = .failed
            return [.notify(.failed(.aborted))]
        default:
            return []
        }
    }

    /// Frame 2 with a failure status and our NAN element only (3.4.1: "Status != 0: header +
    /// extra IEs only"; status 77 adds the Supported Groups element).
    public static func rejection(status: UInt16, configuration: PASNConfiguration) -> TxRequest {
        var elements: [FrameElement] = [.nan(NANElement(attributes: configuration.nanAttributes))]
        if status == PASNStatusCode.unsupportedGroup, let suite = PASNSuiteParameters(configuration.suite) {
            elements.append(.supportedGroups(SupportedGroupsElement(groups: [suite.group])))
        }
        return PASNFrames.request(
            PASNAuthenticationFrame(transactionSequence: 2, statusCode: status, elements: elements),
            configuration: configuration
        )
    }
}

extension PASNResponder: ProtocolMachine {
    public static func timerEvent(_: PASNTimer) -> Event { .timerFired }
}

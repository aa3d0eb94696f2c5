import AwareCore
import AwareCrypto
import AwareProtocol
import AwareWire

/// The policy a ``PairingManager`` leaves to its owner, as bumble's `PairingDelegate` does for
/// its SMP manager: the protocol (bootstrapping, PASN, keys, the NIK exchange, the pairing
/// record) is the manager's; who may pair, which PIN is shown or typed, how wrong PINs are
/// limited and what the owner logs are the delegate's. The accessory's firmware answers as a
/// responder, the runner's phone as an initiator; a device can be both.
///
/// Every method runs on the scheduler's thread, inside the manager's handling of a frame or a
/// timer; the manager carries on with the answer at once.
public protocol PairingDelegate: AnyObject {
    /// Responder: `peer` asks to bootstrap with `method` (nan-wire-reference.md 3.2). Authorize it
    /// (and show the PIN the person will type on the phone), or refuse it with an NPBA reason
    /// code (2.11). The delegate logs its own refusals.
    func pairingManager(
        _ manager: PairingManager,
        authorize peer: MACAddress,
        method: BootstrappingMethods
    ) -> BootstrapDecision

    /// Responder: the password for a pairing setup that `peer` opens with PASN frame 1 (3.4):
    /// the PIN shown for it. `bootstrapped` says whether a bootstrapping with `peer` was
    /// authorized. nil refuses the setup with status 1 (request declined); the delegate logs why.
    func pairingManager(_ manager: PairingManager, setupPasswordFor peer: MACAddress, bootstrapped: Bool) -> String?

    /// Initiator: the PIN the person reads off the accessory and types, once the accessory
    /// accepted PIN bootstrapping; nil when none was shown.
    func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> String?

    /// What happened, for the owner's log and its policy (attempt limits, the PIN display).
    func pairingManager(_ manager: PairingManager, didReport event: PairingEvent)
}

extension PairingDelegate {
    /// A device that only initiates refuses every bootstrapping request (reason 1, unspecified).
    public func pairingManager(
        _ manager: PairingManager,
        authorize peer: MACAddress,
        method: BootstrappingMethods
    ) -> BootstrapDecision { .reject(reasonCode: 1) }

    public func pairingManager(
        _ manager: PairingManager,
        setupPasswordFor peer: MACAddress,
        bootstrapped: Bool
    ) -> String? { nil }

    public func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> String? { nil }
}

/// What a ``PairingManager`` tells its delegate, in the order it happens.
public enum PairingEvent: Sendable {
    // MARK: Responder

    /// A bootstrapping request from `peer` (the delegate is asked to authorize it next).
    case bootstrapRequested(peer: MACAddress, method: BootstrappingMethods)
    /// The phone came back for the PIN with the right cookie (3.2).
    case bootstrapAccepted(peer: MACAddress)
    /// A request for a method we do not offer, refused.
    case bootstrapMethodNotOffered(peer: MACAddress, requested: BootstrappingMethods)
    /// A comeback that matches no authorized session, refused; any PIN shown for it is void.
    case bootstrapInvalidComeback(peer: MACAddress)
    /// The bootstrapping session with `peer` ended unused; any PIN shown for it is void.
    case bootstrapExpired(peer: MACAddress)
    /// The pairing attempt the bootstrapping with `peer` was for is over (completed, or failed
    /// without the phone asking again): a PIN shown for it is void.
    case bootstrapEnded(peer: MACAddress)
    /// PASN frame 1 opened a setup or a verification.
    case pairingStarted(peer: MACAddress, verification: Bool)
    /// A verification that no cached pairing resolves: refused with status 53 (invalid PMKID).
    case verificationRefused(peer: MACAddress)
    /// A PASN frame 1 or 3 seen before: ignored.
    case replayRejected(peer: MACAddress, frame: Int)
    /// A setup completed; keys are cached when both sides said so (the NIK exchange follows).
    case paired(peer: MACAddress, suite: NANSecurityCipherSuite, keyCaching: Bool)
    /// A verification completed: the peer reconnected with its cached keys.
    case reconnected(peer: MACAddress)
    /// A setup failed. `guessSpent`: our SAE confirm was out, so the peer has tested a PIN.
    case pairingFailed(peer: MACAddress, PASNFailure, guessSpent: Bool)
    /// A verification failed.
    case verificationFailed(peer: MACAddress, PASNFailure)
    /// The peer came back under a new NMI and verified the pairing made under `old`: what was
    /// kept for `old` is gone.
    case peerAddressChanged(from: MACAddress, to: MACAddress)
    /// The peer's NIK arrived but caching is off on one side: ignored, nothing kept.
    case nikIgnored(peer: MACAddress)
    /// The peer's NIK descriptor did not unwrap.
    case nikRefused(peer: MACAddress, KeyDerivationError)
    /// The NIKs are exchanged; `pairedDevices` are kept now.
    case nikExchanged(peer: MACAddress, pairedDevices: Int)

    // MARK: Initiator

    /// The accessory asked us to come back after `after` (3.2).
    case bootstrapComeback(after: Interval)
    /// The accessory authorized PIN bootstrapping: PASN starts.
    case bootstrapAuthorized(peer: MACAddress)
    /// The last frame of the setup (frame 3) went unacknowledged; the NIK goes anyway.
    case frame3Unacknowledged(peer: MACAddress)
    /// The attempt ended (``PairingManager/pair(_:)`` and ``PairingManager/verify(_:)``).
    case attemptEnded(PairingAttemptResult)

    // MARK: Both

    /// A pairing record was written to the store.
    case recordStored(PairingRecord)
    /// A pairing record could not be written: it is kept in memory only.
    case storeFailed(DeviceStateError)
}

/// How an initiator's pairing or verification attempt ended.
public enum PairingAttemptResult: Sendable {
    /// The setup completed. `nikReceived`: the accessory's NIK came back, so both sides cache
    /// keys; false with `nikSent` when the accessory sent none within the wait.
    case paired(PASNResult, nikSent: Bool, nikReceived: Bool)
    /// The verification completed: reconnected without a PIN.
    case reconnected(PASNResult)
    /// Nothing cached resolves the accessory (it advertises no NIRA when `advertisesNIRA` is false).
    case noCachedKeys(advertisesNIRA: Bool)
    /// The accessory showed no PIN to enter.
    case noPIN
    case bootstrapFailed(BootstrapFailure)
    case pasnFailed(PASNFailure)
}

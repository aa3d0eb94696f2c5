import AwareCore
import AwareWire

/// What a bootstrapping machine asks its driver to do, in order. NPBA rides in Follow-up SDFs
/// (nan-wire-reference.md 3.2), so a transmission is a ``FollowUpRequest`` for the discovery
/// engine, never a frame.
public typealias BootstrapAction<Notification> = MachineAction<FollowUpRequest, BootstrapTimer, Notification>

public typealias BootstrapRequesterAction = BootstrapAction<BootstrapRequesterNotification>
public typealias BootstrapResponderAction = BootstrapAction<BootstrapResponderNotification>

/// The timers the bootstrapping machines arm. Arming a timer that is already armed moves it; a
/// timer that fires after its state has moved on is ignored.
public enum BootstrapTimer: Hashable, Sendable {
    /// Requester: re-send the outstanding Request (`NAN_BOOTSTRAP_RETRY_TIMEOUT_US`, 1 s;
    /// nan-wire-reference.md 3.2).
    case retransmit(peer: MACAddress)
    /// Requester: the Comeback After time of the peer's Response has passed.
    case comeback(peer: MACAddress)
    /// Responder: the session with this peer ends.
    case sessionExpiry(peer: MACAddress)
}

/// The outcome of a successful bootstrapping, as either side sees it: who displays and who
/// enters (nan-wire-reference.md 3.2), and the Request NPBA that hostap carries on into PASN
/// frames 1 and 2 (3.2, 3.9).
public struct BootstrapAgreement: Hashable, Sendable {
    public var peerAddress: MACAddress
    public var localInstanceID: UInt8
    public var peerInstanceID: UInt8
    /// The own method (requester: the one it asked for; responder: the complement it accepted).
    public var method: BootstrappingMethods
    public var peerMethod: BootstrappingMethods
    /// The requester keeps the first Request it built (status 0: hostap session frame 14); the
    /// responder keeps the last Request it received (the comeback Request: frame 15).
    public var request: PairingBootstrappingAttribute

    public init(
        peerAddress: MACAddress,
        localInstanceID: UInt8,
        peerInstanceID: UInt8,
        method: BootstrappingMethods,
        peerMethod: BootstrappingMethods,
        request: PairingBootstrappingAttribute
    ) {
        self.peerAddress = peerAddress
        self.localInstanceID = localInstanceID
        self.peerInstanceID = peerInstanceID
        self.method = method
        self.peerMethod = peerMethod
        self.request = request
    }
}

extension BootstrappingMethods {
    /// A Request names exactly one method: the one the requester itself will use
    /// (nan-wire-reference.md 3.2). The complement rule itself is ``BootstrappingMethods/complement``
    /// in AwareWire.
    public var isSingleMethod: Bool { rawValue.nonzeroBitCount == 1 }
}

extension FollowUpMessage {
    /// The first NPBA of this type (and dialog token, when given) in the follow-up.
    func pairingBootstrapping(
        type: PairingBootstrappingType,
        dialogToken: UInt8? = nil
    ) -> PairingBootstrappingAttribute? {
        for case .pairingBootstrapping(let npba) in attributes
        where npba.type == type && (dialogToken == nil || npba.dialogToken == dialogToken) {
            return npba
        }
        return nil
    }
}

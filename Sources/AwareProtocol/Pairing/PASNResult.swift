import AwareCore
import AwareCrypto
import AwareWire

/// What a PASN machine asks its driver to do: transmit whole Authentication frames, arm its one
/// timer, report.
public typealias PASNAction = MachineAction<TxRequest, PASNTimer, PASNNotification>

/// The one timer of a PASN machine: the wait for the peer's next frame (frame 2 for the
/// initiator, frame 3 for the responder; ``PASNConfiguration/responseTimeout``).
public enum PASNTimer: Hashable, Sendable {
    case awaitingFrame
}

/// What a PASN machine reports.
public enum PASNNotification: Hashable, Sendable {
    /// Frame `sequence` went out (`attempt` counts retransmissions of frame 1 from 1).
    case frameSent(sequence: UInt16, attempt: Int)
    case completed(PASNResult)
    case failed(PASNFailure)
}

/// What a completed PASN exchange leaves both sides with (nan-wire-reference.md 3.4.2, 3.5).
public struct PASNResult: Hashable, Sendable {
    public var initiator: MACAddress
    public var responder: MACAddress
    public var suite: NANSecurityCipherSuite
    public var akm: PASNAKM
    /// True for a pairing verification with a cached NPK (3.7), false for a pairing setup.
    public var isVerification: Bool
    /// The NPK: the SAE PMK of a setup, the cached NPK of a verification.
    public var npk: [UInt8]
    /// NM-TK (the PASN TK), which protects unicast management frames to the peer (3.8).
    public var tk: [UInt8]
    /// NM-KEK, which wraps the NIKs the pair exchange next (3.6).
    public var nmKEK: [UInt8]
    /// ND-PMK for data paths with the peer (3.5).
    public var ndPMK: [UInt8]
    /// The attributes of the peer's NAN element (its DCEA says whether it caches keys, its NIRA
    /// who it is).
    public var peerNANAttributes: [NANAttribute]

    public init(
        initiator: MACAddress,
        responder: MACAddress,
        suite: NANSecurityCipherSuite,
        akm: PASNAKM,
        isVerification: Bool,
        npk: [UInt8],
        tk: [UInt8],
        nmKEK: [UInt8],
        ndPMK: [UInt8],
        peerNANAttributes: [NANAttribute]
    ) {
        self.initiator = initiator
        self.responder = responder
        self.suite = suite
        self.akm = akm
        self.isVerification = isVerification
        self.npk = npk
        self.tk = tk
        self.nmKEK = nmKEK
        self.ndPMK = ndPMK
        self.peerNANAttributes = peerNANAttributes
    }

    /// Whether the peer's DCEA says it caches NPK and NIK.
    public var peerCachesKeys: Bool {
        peerNANAttributes.contains {
            if case .deviceCapabilityExtension(let dcea) = $0 { dcea.npkNIKCachingEnabled } else { false }
        }
    }

    /// The NIRA the peer sent in its NAN element, if any.
    public var peerIdentityResolution: IdentityResolutionAttribute? {
        for attribute in peerNANAttributes {
            if case .identityResolution(let nira) = attribute { return nira }
        }
        return nil
    }
}

extension PASNResult: CustomStringConvertible {
    /// Keys stay out of logs.
    public var description: String {
        "PASNResult(\(isVerification ? "verification" : "pairing") \(initiator) -> \(responder), "
            + "CSID \(suite.csid), keys <redacted>)"
    }
}

/// Why a PASN exchange did not complete. ``reason`` is the machine-readable name the runner
/// reports.
public enum PASNFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer's SAE confirm does not match ours: a wrong PIN (or a forged frame).
    case saeConfirmMismatch
    /// The MIC of frame 2 or 3 does not verify.
    case micMismatch(frame: UInt16)
    /// The responder answered frame 1 with a failure status.
    case rejected(status: UInt16)
    /// The peer aborted with a failure status after our frame.
    case peerAborted(status: UInt16)
    /// No answer in time.
    case timeout(waitingFor: UInt16)
    /// The NPKID names no cached pairing: the peer forgot us, or we forgot it (3.7).
    case unknownNPKID
    /// A frame seen before was sent again (a replayed frame 1 or 3).
    case replay(frame: UInt16)
    /// A frame lacks something the exchange needs, or carries something it does not allow.
    case invalidFrame(frame: UInt16, reason: String)
    /// The peer's SAE commit or ECDH key is refused (not on the curve, out of range, ours
    /// reflected).
    case invalidPeerKey(frame: UInt16, reason: String)
    /// The owner ended the exchange.
    case aborted
    /// Our own side could not compute (a bug or an exhausted random source).
    case internalError(String)

    public var reason: String {
        switch self {
        case .saeConfirmMismatch: "sae-confirm-mismatch"
        case .micMismatch: "mic-mismatch"
        case .rejected(let status):
            switch status {
            // Both a locked accessory and one that showed this phone no PIN send 37: the phone
            // cannot tell which, so it does not say (the campaign of issue 21 met the second
            // reported as a lockout). A lockout is told at bootstrapping, reason 8.
            case PASNStatusCode.requestDeclined: "declined"
            case PASNStatusCode.invalidPMKID: "no-cached-keys"
            default: "rejected"
            }
        case .peerAborted: "peer-aborted"
        case .timeout: "timeout"
        case .unknownNPKID: "unknown-npkid"
        case .replay: "replay"
        case .invalidFrame: "malformed-frame"
        case .invalidPeerKey: "invalid-peer-key"
        case .aborted: "aborted"
        case .internalError: "internal-error"
        }
    }

    public var description: String {
        switch self {
        case .saeConfirmMismatch: "the peer's SAE confirm does not match (wrong PIN?)"
        case .micMismatch(let frame): "the MIC of PASN frame \(frame) does not verify"
        case .rejected(let status): "the responder refused with status \(status)"
        case .peerAborted(let status): "the peer aborted with status \(status)"
        case .timeout(let frame): "no PASN frame \(frame) in time"
        case .unknownNPKID: "the NPKID names no cached pairing"
        case .replay(let frame): "PASN frame \(frame) was seen before (replay)"
        case .invalidFrame(let frame, let reason): "PASN frame \(frame) refused: \(reason)"
        case .invalidPeerKey(let frame, let reason): "the key in PASN frame \(frame) is refused: \(reason)"
        case .aborted: "aborted"
        case .internalError(let reason): "internal error: \(reason)"
        }
    }
}

/// The IEEE 802.11 status codes a PASN exchange sends (IEEE 802.11-2020 Table 9-50;
/// nan-wire-reference.md 3.4.2).
public enum PASNStatusCode {
    public static let success: UInt16 = 0
    /// Unspecified failure: our abort after a failed check (hostap `nan_pairing_abort`).
    public static let unspecifiedFailure: UInt16 = 1
    /// The request was declined: pairing is locked after wrong PINs, or no PIN was shown.
    public static let requestDeclined: UInt16 = 37
    /// The PMKID (our NPKID) names no cached pairing.
    public static let invalidPMKID: UInt16 = 53
    /// The group is not supported (answered with a Supported Groups element).
    public static let unsupportedGroup: UInt16 = 77
    /// The AKM or cipher of the RSNE is not the one configured.
    public static let baseAKMPFailed: UInt16 = 137
}

import AwareCore
import AwareCrypto
import AwareWire

/// What an NDP machine asks its owner to do, in order. A transmission is a whole 802.11 MPDU
/// carrying a NAF, unprotected: the device edge applies category-9 protection for paired peers;
/// the machine already wrote the category it was configured with, because the Key MICs cover
/// the category octet (nan-wire-reference.md 4.2).
public typealias NDPAction = MachineAction<[UInt8], NDPTimer, NDPNotification>

/// What an NDP machine reports to its owner.
public enum NDPNotification: Hashable, Sendable {
    /// Setup finished: the data path carries frames from now on.
    case established(NDPLink)
    /// Setup failed; nothing more is sent.
    case failed(NDPFailure)
    /// A Data Path Termination ended the data path (or its setup), sent by us or by the peer.
    case terminated(NDPLink.ID, reason: NANReasonCode, byPeer: Bool)
}

/// What the owner feeds an NDP machine.
public enum NDPEvent: Hashable, Sendable {
    /// A NAN Action frame from `transmitter` (A2), already unprotected and parsed. The frame
    /// is re-serialized for MIC checks: parsing and writing are byte-exact, so the octets are
    /// the ones sent.
    case received(NANActionFrame, transmitter: MACAddress)
    case timerFired(NDPTimer)
    /// The owner ends the data path (or gives up setting it up): a Data Path Termination goes out.
    case terminate(reason: NANReasonCode)
}

/// The one timer of an NDP machine, named by what it waits for. On expiry the machine
/// retransmits its last frame or, after the last attempt, fails with a timeout.
public enum NDPTimer: Hashable, Sendable {
    /// The initiator waits for the Data Path Response.
    case awaitingResponse
    /// The responder waits for the Data Path Confirm.
    case awaitingConfirm
    /// The initiator waits for the Data Path Key Installment.
    case awaitingKeyInstall
    /// A schedule renegotiation's requester waits for the Schedule Response (NAF subtype 11).
    case awaitingScheduleResponse
    /// A schedule renegotiation's responder, having counter-proposed, waits for the Schedule
    /// Confirm (NAF subtype 12).
    case awaitingScheduleConfirm
}

/// How often a machine sends its frame again while it waits (every second, three
/// transmissions in all, then a timeout: this bench's choice, the reference gives no values).
public struct NDPRetransmission: Hashable, Sendable {
    public var interval: Interval
    public var maxTransmissions: Int

    public init(interval: Interval = .seconds(1), maxTransmissions: Int = 3) {
        self.interval = interval
        self.maxTransmissions = maxTransmissions
    }

    /// How long a machine waits for an answer in all: every transmission's interval.
    public var timeLimit: Interval { interval * Int64(maxTransmissions) }
}

/// Why a data path was not set up. ``reason`` is the NAN reason code on the wire, when one was
/// sent or received (nan-wire-reference.md 2.11).
public struct NDPFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The peer answered Rejected with this reason.
        case rejectedByPeer(NANReasonCode)
        /// No answer after every retransmission.
        case timeout(NDPTimer)
        /// A Key MIC does not verify (message 2, 3 or 4).
        case micMismatch(message: Int)
        /// The peer's ND-PMKID is not the one our PMK gives.
        case pmkidMismatch
        /// A secure request from a peer we hold no credential for, or none whose ND-PMKID matches.
        case noCredential
        /// A request without security while our policy requires it.
        case openRefused
        /// A cipher suite our policy does not allow.
        case suiteNotAllowed(csid: UInt8)
        /// No schedule both sides can live with.
        case scheduleUnacceptable
        /// The peer's NDL QoS asks for another performance mode than expected.
        case modeMismatch(expected: PerformanceMode, requested: PerformanceMode)
        /// The request names a publish ID we do not serve.
        case unknownPublishID(UInt8)
        /// A frame lacks something the exchange needs.
        case malformed(String)
        /// A field did not parse.
        case wire(WireError)
        /// Our own side could not compute (bad configuration).
        case internalError(String)
        /// A schedule renegotiation of ours gave way: the peer asked at the same time and its
        /// request was answered instead (the device with the lower NMI keeps its request).
        case supersededByPeer
        /// This device is in no cluster to set the data path up in: none formed or joined within
        /// the request's time limit, or a Data Path Request named none in A3. A data path's NAFs
        /// carry the Cluster ID as A3 and its slots count from the cluster's TSF (1.3, 2.7).
        case noCluster
        /// This device holds data paths with as many peers as it serves at once (`limit`), and
        /// the request came from another one (RESOURCE_LIMITATION, 2.11).
        case peerLimit(Int)
    }

    public var kind: Kind
    public var reason: NANReasonCode?

    public init(_ kind: Kind, reason: NANReasonCode? = nil) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String {
        let code = reason.map { " (reason \($0.rawValue) \($0.name))" } ?? ""
        let text: String =
            switch kind {
            case .rejectedByPeer(let reason): "the peer rejected the data path with \(reason.name)"
            case .timeout(let timer): "no answer in time (\(timer))"
            case .micMismatch(let message): "the Key MIC of message \(message) does not verify"
            case .pmkidMismatch: "the peer's ND-PMKID does not match our PMK"
            case .noCredential: "no credential for this peer (unpaired, or ND-PMKID matches none)"
            case .openRefused: "an open data path is refused: security is required"
            case .suiteNotAllowed(let csid): "cipher suite \(csid) is not allowed"
            case .scheduleUnacceptable: "no acceptable schedule"
            case .modeMismatch(let expected, let requested):
                "the peer asks for \(requested.rawValue) mode, \(expected.rawValue) expected"
            case .unknownPublishID(let id): "publish ID \(id) is not served here"
            case .malformed(let what): "malformed frame: \(what)"
            case .wire(let error): "malformed frame: \(error)"
            case .internalError(let what): "internal error: \(what)"
            case .supersededByPeer: "the peer asked for a new schedule at the same time; its request was answered"
            case .noCluster:
                "no cluster to set the data path up in (none formed or joined in time, or the request named none)"
            case .peerLimit(let limit):
                "already serving data paths to \(limit) phone\(limit == 1 ? "" : "s") at once, the most it serves"
            }
        return text + code
    }
}

/// An established data path: who, which keys, which schedule.
public struct NDPLink: Hashable, Sendable {
    /// A data path is named by the peer's NMI and the NDP ID the initiator chose.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        public var peerNMI: MACAddress
        public var ndpID: UInt8

        public init(peerNMI: MACAddress, ndpID: UInt8) {
            self.peerNMI = peerNMI
            self.ndpID = ndpID
        }

        public var description: String { "NDP \(ndpID) with \(peerNMI)" }
    }

    public var ndpID: UInt8
    public var initiatorNDI: MACAddress
    public var responderNDI: MACAddress
    public var peerNMI: MACAddress
    public var publishID: UInt8
    public var isInitiator: Bool
    /// nil for an open data path.
    public var security: NANSecurityCipherSuite?
    /// The temporal key of the NDP PTK (4.2); empty when open.
    public var tk: [UInt8]
    /// The agreed committed schedule.
    public var schedule: NDPSchedule
    /// The peer's IPv6 link-local interface identifier (NDPE TLV type 0, 2.10), if it sent one.
    public var peerInterfaceIdentifier: [UInt8]?
    /// The NDL QoS the peer sent, if any.
    public var peerQoS: NDLQoSAttribute?
    /// The NDC the NDL Response selected (2.8); nil when the responder selected none.
    public var ndc: NDCSchedule?
    /// The service transport the peer named in its NDPE Service Info TLV (or, in an NDP
    /// attribute, its NDP Specific Info), if it named one: the port and protocol an initiator's
    /// app connects to (Android `WifiAwareNetworkInfo.getPort` / `getTransportProtocol`).
    public var peerServiceInfo: GenericServiceProtocol? = nil

    public var id: ID { ID(peerNMI: peerNMI, ndpID: ndpID) }
    public var localNDI: MACAddress { isInitiator ? initiatorNDI : responderNDI }
    public var peerNDI: MACAddress { isInitiator ? responderNDI : initiatorNDI }
    /// CSID 1 / 7 -> CCMP-128, 2 / 8 -> GCMP-256; nil when open.
    public var cipher: PASNCipher? { security?.dataCipher }
}

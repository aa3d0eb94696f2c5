import AwareWire

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
            }
        return text + code
    }
}

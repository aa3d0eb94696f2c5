import AwareCore
import AwareCrypto
import AwareWire

/// The NDP responder, the accessory's side (publisher, nan-wire-reference.md 4.1). One value per
/// received Data Path Request: the initializer applies the policy and builds the Response (or
/// the rejection), which ``initialActions`` holds; ``handle(_:now:)`` takes the Confirm and
/// answers with the Key Installment.
///
/// ```swift
/// guard var responder = NDPResponder(configuration: configuration, request: naf,
///                                    transmitter: phone, nonce: rNonce, now: now) else { return }
/// send(responder.initialActions)                        // [.transmit(response), .arm(.awaitingConfirm, ...)]
/// send(responder.handle(.received(confirm, transmitter: phone), now: later))
/// ```
public struct NDPResponder: Sendable {
    public let configuration: NDPResponderConfiguration
    let nonce: [UInt8]
    let request: Request
    var state: State
    /// What the request called for: a response and a timer, or a rejection and a failure.
    public private(set) var initialActions: [NDPAction] = []

    /// What is known of the request.
    struct Request: Sendable {
        var peerNMI: MACAddress
        var initiatorNDI: MACAddress
        var ndpID: UInt8
        var dialogToken: UInt8
        var publishID: UInt8
        var category: NANActionCategory
        /// Answer with NDPE (0x29) rather than NDP (0x10): the requester reads it (2.6).
        var extended: Bool
        /// The m1 NAF body, for the auth token (4.2).
        var body: [UInt8]
    }

    enum State: Sendable {
        case awaitingConfirm(Accepted)
        /// `answered` keeps the Confirm we took and our Key Installment: a Confirm sent again
        /// (the initiator missed our answer) gets the same answer.
        case established(NDPLink, answered: (confirm: [UInt8], keyInstall: [UInt8])?)
        case finished
    }

    /// A response sent, waiting for the Confirm.
    struct Accepted: Sendable {
        var link: NDPLink
        var responseMPDU: [UInt8]
        /// The Availability of the Response, repeated in the Key Installment.
        var availability: NANAttribute
        var keys: Keys?
        var counterProposal: Bool
        var transmissions = 1
    }

    struct Keys: Sendable {
        var suite: NANSecurityCipherSuite
        var pmkid: [UInt8]
        var ptk: NDPPTK
        var iNonce: [UInt8]
        var replayCounter: UInt64
    }

    /// nil unless `request` is a Data Path Request (subtype 5 with an NDP or NDPE of type
    /// Request). `nonce` is the RNonce (32 octets).
    public init?(
        configuration: NDPResponderConfiguration,
        request frame: NANActionFrame,
        transmitter: MACAddress,
        nonce: [UInt8],
        now: Instant
    ) {
        guard frame.subtype == .dataPathRequest, let message = NDPMessage(frame), message.common.type == .request
        else { return nil }
        self.configuration = configuration
        self.nonce = nonce
        request = Request(
            peerNMI: transmitter,
            initiatorNDI: message.common.initiatorNDI,
            ndpID: message.common.ndpID,
            dialogToken: message.common.dialogToken,
            publishID: message.common.publishID ?? 0,
            category: frame.category,
            extended: configuration.policy.followsPeerNDPESupport ? message.senderReadsNDPE : true,
            body: message.body
        )
        state = .finished
        initialActions = respond(to: message, now: now)
    }

    public var id: NDPLink.ID { NDPLink.ID(peerNMI: request.peerNMI, ndpID: request.ndpID) }

    /// The category the request came with, which every NAF of this data path answers in.
    public var category: NANActionCategory { request.category }

    public var link: NDPLink? {
        if case .established(let link, _) = state { link } else { nil }
    }

    public mutating func handle(_ event: NDPEvent, now: Instant) -> [NDPAction] {
        switch event {
        case .received(let frame, let transmitter):
            guard transmitter == request.peerNMI, let message = NDPMessage(frame),
                message.common.initiatorNDI == request.initiatorNDI, message.common.ndpID == request.ndpID
            else { return [] }
            return received(message, now: now)
        case .timerFired(let timer):
            guard case .awaitingConfirm(var accepted) = state, timer == .awaitingConfirm else { return [] }
            guard accepted.transmissions < configuration.retransmission.maxTransmissions else {
                state = .finished
                return [.notify(.failed(NDPFailure(.timeout(timer))))]
            }
            accepted.transmissions += 1
            state = .awaitingConfirm(accepted)
            return [.transmit(accepted.responseMPDU), .arm(timer, at: now + configuration.retransmission.interval)]
        case .terminate(let reason):
            var actions: [NDPAction]
            switch state {
            case .awaitingConfirm: actions = [.cancel(.awaitingConfirm)]
            case .established: actions = []
            case .finished: return []
            }
            state = .finished
            actions.append(.transmit(mpdu(terminationFrame(reason: reason))))
            actions.append(.notify(.terminated(id, reason: reason, byPeer: false)))
            return actions
        }
    }

    private mutating func received(_ message: NDPMessage, now: Instant) -> [NDPAction] {
        switch (state, message.frame.subtype) {
        case (.awaitingConfirm(let accepted), .dataPathConfirm):
            return confirm(message, accepted: accepted)
        case (.awaitingConfirm(let accepted), .dataPathRequest):
            // The initiator did not hear our response: the same request again gets it again.
            guard message.common.dialogToken == request.dialogToken, message.body == request.body else { return [] }
            return [.transmit(accepted.responseMPDU)]
        case (.established(_, let answered?), .dataPathConfirm):
            return message.body == answered.confirm ? [.transmit(answered.keyInstall)] : []
        case (.awaitingConfirm, .dataPathTermination), (.established, .dataPathTermination):
            guard message.common.type == .terminate else { return [] }
            let timer: [NDPAction] = if case .awaitingConfirm = state { [.cancel(.awaitingConfirm)] } else { [] }
            state = .finished
            return timer + [.notify(.terminated(id, reason: message.common.reasonCode, byPeer: true))]
        default:
            return []
        }
    }

    func mpdu(_ frame: NANActionFrame) -> [UInt8] {
        NDPFrames.mpdu(frame, to: request.peerNMI, from: configuration.localNMI, cluster: configuration.clusterID)
    }
}

extension NDPResponder: ProtocolMachine {
    /// The responder draws no randomness: its RNonce comes with the request.
    public mutating func handle(
        _ event: NDPEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [NDPAction] {
        handle(event, now: now)
    }

    public static func timerEvent(_ timer: NDPTimer) -> NDPEvent { .timerFired(timer) }
}

extension NDPResponder {
    /// The Data Path Confirm (4.1, 4.2): Rejected ends the exchange; m3 has Key Info 0x03C8,
    /// INonce and a larger replay counter than m1, and its MIC covers the auth token (the
    /// first 16 octets of the hash of the m1 body) and the body. A secure exchange ends with
    /// the Key Installment (status Accepted, which hostap requires) carrying m4.
    mutating func confirm(_ message: NDPMessage, accepted: Accepted) -> [NDPAction] {
        let common = message.common
        guard common.type == .confirm, common.dialogToken == request.dialogToken else { return [] }
        if common.status == .rejected || message.ndl?.status == .rejected {
            state = .finished
            let reason = common.status == .rejected ? common.reasonCode : message.ndl?.reasonCode ?? .ndlUnacceptable
            let kind: NDPFailure.Kind = accepted.counterProposal ? .scheduleUnacceptable : .rejectedByPeer(reason)
            return [.cancel(.awaitingConfirm), .notify(.failed(NDPFailure(kind, reason: reason)))]
        }
        guard let keys = accepted.keys else {
            state = .established(accepted.link, answered: nil)
            return [.cancel(.awaitingConfirm), .notify(.established(accepted.link))]
        }
        guard message.securityPresent, let m3 = message.keyDescriptor(suite: keys.suite), NDPKeyMessage.m3.matches(m3),
            m3.nonce == keys.iNonce, m3.replayCounter > keys.replayCounter,
            let zeroed = message.bodyWithMICZeroed(suite: keys.suite)
        else {
            state = .finished
            let failure = NDPFailure(.malformed("message 3 is missing or not a message 3"))
            return [.cancel(.awaitingConfirm), .notify(.failed(failure))]
        }
        let authToken = NDPKeyDescriptorMIC.authToken(m1Body: request.body, suite: keys.suite)
        do throws(KeyDerivationError) {
            try NDPKeyDescriptorMIC.verifyM3(m3.mic, ptk: keys.ptk, authToken: authToken, bodyWithMICZeroed: zeroed)
        } catch {
            state = .finished
            return [.cancel(.awaitingConfirm), .notify(.failed(NDPFailure(.micMismatch(message: 3))))]
        }
        guard let install = keyInstallFrame(keys: keys, replayCounter: m3.replayCounter, accepted: accepted) else {
            state = .finished
            return [
                .cancel(.awaitingConfirm),
                .notify(.failed(NDPFailure(.internalError("the m4 MIC could not be computed")))),
            ]
        }
        let installMPDU = mpdu(install)
        state = .established(accepted.link, answered: (message.body, installMPDU))
        return [.cancel(.awaitingConfirm), .transmit(installMPDU), .notify(.established(accepted.link))]
    }
}

/// The accessory's side: what it offers to every data path request (nan-wire-reference.md 4.1).
public struct NDPResponderConfiguration: Hashable, Sendable {
    public var localNMI: MACAddress
    public var localNDI: MACAddress
    public var clusterID: MACAddress
    /// What the accessory can offer; the agreed schedule is a subset of it.
    public var availability: NDPSchedule
    /// The widest channel the accessory's radio takes on its data channel: a proposal on the
    /// same primary channel is scheduled at the narrower of its bandwidth and this one.
    public var maximumBandwidthMHz: Int
    /// Sent as NDPE TLV type 0 when the request came as NDPE; nil sends none.
    public var interfaceIdentifier: [UInt8]?
    /// Publish ID -> the transport of the service it publishes (port and protocol), sent in every
    /// Data Path Response that is not a rejection: as the NDPE Service Info TLV, or in the NDP
    /// Specific Info of an NDP attribute (Android's placement). A service without an entry sends none.
    public var transportInfo: [UInt8: GenericServiceProtocol]
    public var policy: NDPResponderPolicy
    /// Peer NMI -> what we hold for it (the ND-PMK of a paired peer).
    public var credentials: [MACAddress: NDPSecurity]
    /// Used for a peer without an entry in ``credentials`` (a service passphrase or PMK).
    public var defaultCredential: NDPSecurity?
    /// Publish ID -> the service it publishes (the ND-PMKID and passphrase salt name it, 4.2).
    public var serviceIDs: [UInt8: ServiceID]
    /// The fewest slots an agreed schedule may have.
    public var minimumSlots: Int
    /// Attributes written first in every NAF: Device Capability and DCEA (4.1).
    public var leadingAttributes: [NANAttribute]
    /// The ID of the NDC an accepting response selects when the request proposed none (2.8);
    /// nil takes one from the RNonce's last six octets.
    public var ndcID: MACAddress?
    public var availabilityStyle: NDPAvailabilityStyle
    /// The radio's HT/VHT capabilities, sent last in the Request (initiator) or an accepting
    /// Response (responder), as hostap does; nil sends none (hostap's session A recording has none).
    public var elementContainer: ElementContainerAttribute?
    /// Our own NDL QoS for an accepting Response, as hostap sends its configured one; nil sends
    /// none. Never the requester's echoed back: a requester keeps what the Response carries and
    /// holds later schedule changes to it (hostap re-checks it strictly on every change), so its
    /// own minimum echoed back would turn an exact fit into a failure later.
    public var qos: NDLQoSAttribute?
    public var retransmission: NDPRetransmission

    public init(
        localNMI: MACAddress,
        localNDI: MACAddress,
        clusterID: MACAddress,
        availability: NDPSchedule,
        maximumBandwidthMHz: Int = 80,
        interfaceIdentifier: [UInt8]? = nil,
        transportInfo: [UInt8: GenericServiceProtocol] = [:],
        policy: NDPResponderPolicy = NDPResponderPolicy(),
        credentials: [MACAddress: NDPSecurity] = [:],
        defaultCredential: NDPSecurity? = nil,
        serviceIDs: [UInt8: ServiceID],
        minimumSlots: Int = 1,
        leadingAttributes: [NANAttribute] = [],
        ndcID: MACAddress? = nil,
        availabilityStyle: NDPAvailabilityStyle = NDPAvailabilityStyle(),
        elementContainer: ElementContainerAttribute? = nil,
        qos: NDLQoSAttribute? = nil,
        retransmission: NDPRetransmission = NDPRetransmission()
    ) {
        self.localNMI = localNMI
        self.localNDI = localNDI
        self.clusterID = clusterID
        self.availability = availability
        self.maximumBandwidthMHz = maximumBandwidthMHz
        self.interfaceIdentifier = interfaceIdentifier
        self.transportInfo = transportInfo
        self.policy = policy
        self.credentials = credentials
        self.defaultCredential = defaultCredential
        self.serviceIDs = serviceIDs
        self.minimumSlots = minimumSlots
        self.leadingAttributes = leadingAttributes
        self.ndcID = ndcID
        self.availabilityStyle = availabilityStyle
        self.elementContainer = elementContainer
        self.qos = qos
        self.retransmission = retransmission
    }
}

/// What the accessory accepts (nan-wire-reference.md 4.1, 4.2).
public struct NDPResponderPolicy: Hashable, Sendable {
    /// Refuse a request without Security Present (reason SECURITY_POLICY).
    public var requiresSecurity: Bool
    /// The cipher suites a request may name; others are refused with SECURITY_POLICY.
    public var allowedSuites: [NANSecurityCipherSuite]
    /// The performance mode the accessory expects of its peers; a request whose NDL QoS
    /// implies another is refused with QoS_UNACCEPTABLE. nil accepts any.
    public var expectedMode: PerformanceMode?
    /// A fault switch: accept a mode mismatch instead of refusing it.
    public var toleratesModeMismatch: Bool
    /// Answer a proposal that does not fit with our own schedule (4.1); off (a fault switch)
    /// rejects it with INVALID_AVAILABILITY instead.
    public var counterProposes: Bool
    /// Refuse a request whose ND-PMKID matches no key we hold for the peer (4.2); off (a fault
    /// switch) goes on with whatever key we hold and lets the MICs fail later.
    public var checksPMKID: Bool
    /// Name a Selected NDC in an accepting response (2.8); off (a fault switch) sends none, which
    /// hostap drops ("Missing valid selected NDC").
    public var selectsNDC: Bool
    /// Answer in the attribute the requester reads: NDPE when its Device Capability sets the NDPE
    /// bit, NDP otherwise (2.6, 2.10); off (a fault switch) answers NDPE whatever it reads.
    public var followsPeerNDPESupport: Bool
    /// Keep the NDC a request proposes (its ID, and its schedule when it fits, 2.8); off (a
    /// fault switch) selects one of our own whatever was proposed.
    public var honoursProposedNDC: Bool
    /// Read the proposal from every NAN Availability attribute of the request, one per Map ID
    /// (2.7); off (a fault switch) reads only the first.
    public var readsEveryMap: Bool
    /// Keep a proposal's own period when it repeats over more than 512 TU (2.7); off (a fault
    /// switch) folds it onto 512 TU, committing slots the peer only holds in some periods (the
    /// short-period assumption ESP-IDF had to drop for iPhones, esp-idf #16743).
    public var keepsLongPeriods: Bool
    /// Schedule in the proposal's conditional entries as well as its committed ones (2.7;
    /// hostap covers a schedule by both); off (a fault switch) reads committed entries only.
    public var schedulesInConditional: Bool
    /// Set when the device already holds data paths with as many peers as it serves at once
    /// (the value) and the request comes from another peer: it is refused with
    /// RESOURCE_LIMITATION (2.11) before anything else is judged. Whom to count is the owner's
    /// policy (the accessory's profile); nil takes the request on.
    public var peerLimitReached: Int?

    public init(
        requiresSecurity: Bool = true,
        allowedSuites: [NANSecurityCipherSuite] = NANSecurityCipherSuite.allCases,
        expectedMode: PerformanceMode? = nil,
        toleratesModeMismatch: Bool = false,
        counterProposes: Bool = true,
        checksPMKID: Bool = true,
        selectsNDC: Bool = true,
        followsPeerNDPESupport: Bool = true,
        honoursProposedNDC: Bool = true,
        readsEveryMap: Bool = true,
        keepsLongPeriods: Bool = true,
        schedulesInConditional: Bool = true,
        peerLimitReached: Int? = nil
    ) {
        self.peerLimitReached = peerLimitReached
        self.readsEveryMap = readsEveryMap
        self.keepsLongPeriods = keepsLongPeriods
        self.schedulesInConditional = schedulesInConditional
        self.honoursProposedNDC = honoursProposedNDC
        self.selectsNDC = selectsNDC
        self.followsPeerNDPESupport = followsPeerNDPESupport
        self.checksPMKID = checksPMKID
        self.counterProposes = counterProposes
        self.requiresSecurity = requiresSecurity
        self.allowedSuites = allowedSuites
        self.expectedMode = expectedMode
        self.toleratesModeMismatch = toleratesModeMismatch
    }
}

import AwareCore
import AwareWire

/// A Request is on the air: it is re-sent byte for byte every retry interval until a Response
/// with its dialog token arrives (nan-wire-reference.md 3.2).
public struct BootstrapRequestingState: Hashable, Sendable {
    public let target: BootstrapTarget
    /// The Request being sent: status 0 first, status Comeback with the cookie after a Comeback.
    public let request: PairingBootstrappingAttribute
    /// The status-0 Request that opened the exchange (kept for ``BootstrapAgreement/request``).
    public let initialRequest: PairingBootstrappingAttribute
    /// Sends of ``request`` so far.
    public internal(set) var sends: Int
    /// Comeback Responses acted on so far.
    public let comebackRounds: Int

    public var dialogToken: UInt8 { request.dialogToken }

    init(
        target: BootstrapTarget,
        request: PairingBootstrappingAttribute,
        initialRequest: PairingBootstrappingAttribute,
        comebackRounds: Int
    ) {
        self.target = target
        self.request = request
        self.initialRequest = initialRequest
        self.sends = 0
        self.comebackRounds = comebackRounds
    }

    var timer: BootstrapTimer { .retransmit(peer: target.peerAddress) }

    /// Sends ``request`` once more and arms the next retry.
    func sent(now: Instant, configuration: BootstrapRequesterConfiguration) -> BootstrapRequesterTransition {
        var next = self
        next.sends += 1
        let followUp = FollowUpRequest(
            localInstanceID: target.localInstanceID,
            peerAddress: target.peerAddress,
            peerInstanceID: target.peerInstanceID,
            attributes: [.pairingBootstrapping(request)]
        )
        return BootstrapRequesterTransition(
            .requesting(next),
            [
                .transmit(followUp),
                .notify(.requestSent(token: dialogToken, attempt: next.sends)),
                .arm(timer, at: now + configuration.retryInterval),
            ]
        )
    }

    func retryTimerFired(now: Instant, configuration: BootstrapRequesterConfiguration) -> BootstrapRequesterTransition {
        guard sends < configuration.maximumSends else {
            return BootstrapRequesterTransition(.failed(.timeout), [.notify(.failed(.timeout))])
        }
        return sent(now: now, configuration: configuration)
    }

    /// A Response from the target with this dialog token (the caller has checked both).
    func received(
        _ response: PairingBootstrappingAttribute,
        now: Instant,
        configuration: BootstrapRequesterConfiguration
    ) -> BootstrapRequesterTransition {
        switch response.status {
        case .accepted:
            // 3.2: the responder answers with the complement of what was asked.
            guard response.methods.complement == target.method else {
                return failed(.methodMismatch(response.methods))
            }
            let agreement = BootstrapAgreement(
                peerAddress: target.peerAddress,
                localInstanceID: target.localInstanceID,
                peerInstanceID: target.peerInstanceID,
                method: target.method,
                peerMethod: response.methods,
                request: initialRequest
            )
            return BootstrapRequesterTransition(
                .accepted(agreement),
                [.cancel(timer), .notify(.accepted(method: target.method, peerMethod: response.methods))]
            )
        case .rejected:
            return failed(.rejected(reasonCode: response.reasonCode))
        case .comeback:
            guard comebackRounds < configuration.maximumComebackRounds else {
                return failed(.tooManyComebacks)
            }
            let waiting = BootstrapComebackState(
                target: target,
                dialogToken: dialogToken,
                cookie: response.cookie ?? [],
                initialRequest: initialRequest,
                comebackRounds: comebackRounds + 1
            )
            // 2.18: Comeback After counts TU (1024 µs).
            let after = Interval.timeUnits(Int64(response.comebackAfter ?? 0))
            return BootstrapRequesterTransition(
                .awaitingComeback(waiting),
                [
                    .cancel(timer),
                    .notify(.comeback(after: after, cookie: waiting.cookie)),
                    .arm(waiting.timer, at: now + after),
                ]
            )
        case .reserved:
            // A status this code does not know says nothing about the outcome: keep waiting.
            return BootstrapRequesterTransition(.requesting(self), [])
        }
    }

    private func failed(_ failure: BootstrapFailure) -> BootstrapRequesterTransition {
        BootstrapRequesterTransition(.failed(failure), [.cancel(timer), .notify(.failed(failure))])
    }
}

/// The responder answered Comeback: the requester waits Comeback After, then asks again with
/// status Comeback, the same dialog token and the cookie (nan-wire-reference.md 3.2).
public struct BootstrapComebackState: Hashable, Sendable {
    public let target: BootstrapTarget
    public let dialogToken: UInt8
    public let cookie: [UInt8]
    public let initialRequest: PairingBootstrappingAttribute
    /// Comeback Responses acted on so far, this one included.
    public let comebackRounds: Int

    var timer: BootstrapTimer { .comeback(peer: target.peerAddress) }

    /// 2.18: a Request carries the cookie but no Comeback After.
    var comebackRequest: PairingBootstrappingAttribute {
        PairingBootstrappingAttribute(
            dialogToken: dialogToken,
            type: .request,
            status: .comeback,
            cookie: cookie,
            methods: target.method
        )
    }

    func comebackTimerFired(
        now: Instant,
        configuration: BootstrapRequesterConfiguration
    ) -> BootstrapRequesterTransition {
        BootstrapRequestingState(
            target: target,
            request: comebackRequest,
            initialRequest: initialRequest,
            comebackRounds: comebackRounds
        )
        .sent(now: now, configuration: configuration)
    }
}

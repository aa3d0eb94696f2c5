import AwareCore
import AwareWire

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

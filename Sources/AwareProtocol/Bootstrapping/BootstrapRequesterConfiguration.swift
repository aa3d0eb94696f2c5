import AwareCore
import AwareWire

/// How persistent a ``BootstrapRequester`` is. The defaults are hostap's
/// (nan-wire-reference.md 3.2).
public struct BootstrapRequesterConfiguration: Hashable, Sendable {
    /// Time between sends of one Request without a Response (`NAN_BOOTSTRAP_RETRY_TIMEOUT_US`).
    public var retryInterval: Interval
    /// Sends of one Request (the first included) before ``BootstrapFailure/timeout``.
    public var maximumSends: Int
    /// Comeback Responses acted on before ``BootstrapFailure/tooManyComebacks``.
    public var maximumComebackRounds: Int

    public init(retryInterval: Interval = .seconds(1), maximumSends: Int = 5, maximumComebackRounds: Int = 8) {
        self.retryInterval = retryInterval
        self.maximumSends = maximumSends
        self.maximumComebackRounds = maximumComebackRounds
    }
}

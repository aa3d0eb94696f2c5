import AwareCore
import AwareWire

/// What a ``BootstrapRequester`` tells its owner.
public enum BootstrapRequesterNotification: Hashable, Sendable {
    /// A Request went out; `attempt` counts the sends of this Request from 1 (a comeback Request
    /// starts again at 1).
    case requestSent(token: UInt8, attempt: Int)
    /// The responder needs time (it is showing a PIN, or waiting for its user): the requester
    /// retries with this cookie after `after`.
    case comeback(after: Interval, cookie: [UInt8])
    /// Own method and the peer's (its complement, nan-wire-reference.md 3.2).
    case accepted(method: BootstrappingMethods, peerMethod: BootstrappingMethods)
    case failed(BootstrapFailure)
}

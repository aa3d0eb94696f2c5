import AwareCore
import AwareWire

/// What a bootstrapping machine asks its owner to do, in order. NPBA rides in Follow-up SDFs
/// (nan-wire-reference.md 3.2), so a transmission is a ``FollowUpRequest`` for the discovery
/// engine, never a frame.
public enum BootstrapAction<Notification: Hashable & Sendable>: Hashable, Sendable {
    case transmit(FollowUpRequest)
    case arm(BootstrapTimer, at: Instant)
    case cancel(BootstrapTimer)
    case notify(Notification)
}

public typealias BootstrapRequesterAction = BootstrapAction<BootstrapRequesterNotification>
public typealias BootstrapResponderAction = BootstrapAction<BootstrapResponderNotification>

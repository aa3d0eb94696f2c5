import AwareCore
import AwareWire

/// What a ``BootstrapResponder`` offers and how it answers (nan-wire-reference.md 3.2).
public struct BootstrapResponderConfiguration: Hashable, Sendable {
    /// The methods this side will use, as advertised in its Publish NPBA (for example
    /// ``BootstrappingMethods/pinCodeDisplay``). A Request is served when the complement of its
    /// method is in here.
    public var offered: BootstrappingMethods
    /// Methods accepted at once, without the owner's decision (wpa_supplicant
    /// `DEFAULT_NAN_AUTO_ACCEPT_PBM`: opportunistic only).
    public var autoAccept: BootstrappingMethods
    /// Comeback After of the Comeback Response, in TU (wpa_supplicant default 1024; the hostap
    /// session recorded 200).
    public var comebackAfterTU: UInt16
    /// How long a peer's session (its token, cookie and last Response) is kept.
    public var sessionLifetime: Interval

    public init(
        offered: BootstrappingMethods,
        autoAccept: BootstrappingMethods = [.opportunistic],
        comebackAfterTU: UInt16 = 1024,
        sessionLifetime: Interval = .seconds(60)
    ) {
        self.offered = offered
        self.autoAccept = autoAccept
        self.comebackAfterTU = comebackAfterTU
        self.sessionLifetime = sessionLifetime
    }
}

import AwareCore
import AwareWire

/// What the accessory shows on its display when a phone asks to pair with a PIN: the one
/// place the PIN goes (the "display channel"). `accessory-emu` draws it as a box on the
/// terminal, or prints the `pin_displayed` JSON event, and on a shared air also publishes it on
/// the side channel, where it stands in for the eyes of the person holding the phone.
public struct PINDisplay: Sendable {
    public var pin: PINCode
    /// The phone that asked.
    public var peer: MACAddress
    /// Our own NMI, so that a reader on a shared air can tell accessories apart.
    public var accessory: MACAddress
    public var pairingName: String
    public var time: Instant

    /// `{"event":"pin_displayed","t":…,"pin":"NNNNNN","nmi":…,"peer":…,"pairingName":…}`
    public var json: JSONValue {
        .object([
            ("event", .string("pin_displayed")), ("t", .double((time.seconds * 1e6).rounded() / 1e6)),
            ("pin", .string(pin.digits)), ("nmi", .string(accessory.description)),
            ("peer", .string(peer.description)), ("pairingName", .string(pairingName)),
        ])
    }
}

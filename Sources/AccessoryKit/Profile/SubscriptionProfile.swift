/// A service the accessory looks for instead of offering: the reverse role. An app that pairs
/// through DevicePairingView publishes its service and the accessory subscribes; the publisher
/// shows the PIN and the subscriber enters it (apple-peer-model.md 3, after WWDC25 session 228).
/// So the accessory is then the bootstrapping requester (PIN keypad), the PASN initiator, the
/// first to send its NIK, and the initiator of the data path (nan-wire-reference.md 3.1, 4).
/// docs/reference/profile-reference.md, `subscriptions[]`.
public struct SubscriptionProfile: Codable, Hashable, Sendable {
    /// The service name, `_name._udp` or `_name._tcp`, as `services[].name`.
    public var name: String
    /// Whether the accessory opens a paired data path to the publisher once it has paired or
    /// verified with it: the accessory-initiated data path.
    public var datapath: Bool

    public init(name: String, datapath: Bool = true) {
        self.name = name
        self.datapath = datapath
    }

    /// The most subscriptions a profile lists.
    public static let maximumCount = 8
}

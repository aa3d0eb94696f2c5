import AwareWire

/// What a device that takes part in data paths says about itself in its SDFs: its Device
/// Capability and its NAN Availability (nan-wire-reference.md 2.6, 2.7, 4.1).
///
/// A peer plans a data path from them before it sends a single NAF: hostap's `nan.c` stores
/// the Device Capability of every peer it hears (in an SDF of a matched service or any NAF),
/// refuses to set up a data path with a peer it has none for ("no device capabilities"), and
/// picks NDP or NDPE by its NDPE bit. Every SDF of the hostap session in
/// `Fixtures/hostap-session-A/` carries both, publish, subscribe and follow-up alike.
///
/// A publish that invites no data path (a Remote ID-style beacon) leaves them out
/// (``PublishConfiguration/offersDataPaths``).
public struct DataPathAdvertisement: Hashable, Sendable {
    /// nil sends none (only a fault does that: a peer then opens no data path).
    public var deviceCapability: DeviceCapabilityAttribute?
    /// nil sends no NAN Availability: a device that cannot say yet when it is awake.
    public var availability: AvailabilityAttribute?

    public init(deviceCapability: DeviceCapabilityAttribute?, availability: AvailabilityAttribute?) {
        self.deviceCapability = deviceCapability
        self.availability = availability
    }

    /// Device Capability, then NAN Availability (hostap's order, session A frames 1-13).
    public var attributes: [NANAttribute] {
        var attributes: [NANAttribute] = []
        if let deviceCapability { attributes.append(.deviceCapability(deviceCapability)) }
        if let availability { attributes.append(.availability(availability)) }
        return attributes
    }
}

extension DeviceCapabilityAttribute {
    /// What the bench's devices say of themselves (2.6): the capability applies to every map
    /// (Map ID 0, as hostap always sends); they wake for every 2.4 GHz and every 5 GHz discovery
    /// window (Committed DW Info 0x0009: 2^(1-1) = every DW in both bands, as hostap); they work
    /// on 2.4 GHz and 5 GHz (Supported Bands b2 + b4 = 0x14); the modelled PHY is OFDM without
    /// HT options, so Operation Mode is 0; one transmit and one receive chain (0x11); they keep
    /// the home channel while a data path runs, so switching costs nothing to announce (0 µs);
    /// and they read and write the NDPE attribute (Capabilities b3 = 0x08), which hostap and an
    /// iPhone (NAN R4) both support.
    public static func bench(ndpeSupported: Bool = true) -> DeviceCapabilityAttribute {
        DeviceCapabilityAttribute(
            mapID: 0,
            committedDWInfo: 0x0009,
            supportedBands: 0x14,
            operationMode: 0,
            numberOfAntennas: 0x11,
            maxChannelSwitchTime: 0,
            capabilities: ndpeSupported ? 0x08 : 0
        )
    }
}

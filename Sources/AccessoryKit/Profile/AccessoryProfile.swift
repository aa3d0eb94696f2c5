/// An accessory profile after loading: every rule checked and every default filled in.
///
/// The JSON file format is described in docs/reference/profile-reference.md and Profiles/profile.schema.json.
/// Load files with `ProfileLoader`; the Codable conformance reads and writes this normalized form
/// (every default written out), which is itself a valid profile.
public struct AccessoryProfile: Codable, Hashable, Sendable {
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Free text for people; the accessory does not use it.
    public var description: String?
    public var device: DeviceIdentity
    public var radio: RadioSettings
    public var services: [ServiceProfile]
    /// Present when the accessory offers NAN pairing; then `device.pairingName` is set.
    public var pairing: PairingSettings?
    public var performance: PerformanceSettings
    public var app: AppProfile?

    public init(
        formatVersion: Int = AccessoryProfile.currentFormatVersion,
        description: String? = nil,
        device: DeviceIdentity,
        radio: RadioSettings = RadioSettings(),
        services: [ServiceProfile],
        pairing: PairingSettings? = nil,
        performance: PerformanceSettings = PerformanceSettings(),
        app: AppProfile? = nil
    ) {
        self.formatVersion = formatVersion
        self.description = description
        self.device = device
        self.radio = radio
        self.services = services
        self.pairing = pairing
        self.performance = performance
        self.app = app
    }

    /// Whether the accessory takes part in pairing setup (PIN display, NPK/NIK exchange).
    public var offersPairing: Bool { pairing != nil }

    /// The TXT entries the phone reads during pairing setup, in the order they are sent
    /// (apple-peer-model.md 2.1: `vendorName`, `modelName`, `pairingName`).
    public var pairingTXTEntries: [(key: String, value: String)] {
        var entries = [(key: "vendorName", value: device.vendorName), (key: "modelName", value: device.modelName)]
        if let pairingName = device.pairingName { entries.append((key: "pairingName", value: pairingName)) }
        return entries
    }
}

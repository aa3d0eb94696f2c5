/// What the accessory's profile declares, reduced to the facts tests are gated on (the ICS/PICS of this
/// bench: Bluetooth's Implementation Conformance Statement, Matter's PICS). The integrator builds it from the loaded profile.
public struct ProfileFacts: Hashable, Sendable {
    /// The profile file as the user named it, for reports and rerun commands.
    public var path: String
    public var services: [ServiceFacts]
    /// The profile has a pairing section (PIN display, PASN, key caching).
    public var offersPairing: Bool
    /// The bootstrapping methods the accessory advertises, in the profile's words (`pinDisplay`).
    public var bootstrappingMethods: [String]
    /// The identity the accessory announces in its TXT record (apple-peer-model.md).
    public var vendorName: String?
    public var modelName: String?
    public var pairingName: String?
    /// Data paths, performance modes and application services; nil when no service takes data paths.
    public var dataPath: DataPathFacts?
    /// How long a phone may keep the accessory's NIK (`pairing.cache.nikLifetimeSeconds`, 0 = no
    /// expiry); nil when the accessory hands out no NIK.
    public var nikLifetimeSeconds: Int?

    public init(
        path: String,
        services: [ServiceFacts],
        offersPairing: Bool = false,
        bootstrappingMethods: [String] = [],
        vendorName: String? = nil,
        modelName: String? = nil,
        pairingName: String? = nil,
        dataPath: DataPathFacts? = nil,
        nikLifetimeSeconds: Int? = nil
    ) {
        self.dataPath = dataPath
        self.nikLifetimeSeconds = nikLifetimeSeconds
        self.vendorName = vendorName
        self.modelName = modelName
        self.pairingName = pairingName
        self.path = path
        self.services = services
        self.offersPairing = offersPairing
        self.bootstrappingMethods = bootstrappingMethods
    }
}

import AccessoryKit
import AwareCore
import AwareWire

/// The accessories the protocol and control targets run: the repository's own profiles,
/// loaded once per process.
public enum HarnessProfiles {
    /// Profiles/drone.json as the hostap session's accessory: its NMI (02:a0:00:00:00:01) and
    /// its PIN (482915), so that the session's PASN frame 1 carries a valid SAE commit for
    /// this accessory and a replayed session goes as deep as frame 3.
    public static let drone: AccessoryProfile = {
        var profile = load("Profiles/drone.json")
        profile.radio.nmi = sessionAccessory.description
        profile.radio.nmiSeed = nil
        profile.pairing?.pin.fixed = "482915"
        return profile
    }()

    /// Profiles/camera.json as it is: a fixed NMI, two services, one of them with an open
    /// data path that needs a confirmation.
    public static let camera: AccessoryProfile = load("Profiles/camera.json")

    /// The accessory's NMI in the hostap session (Fixtures/hostap-session-A/README.md).
    public static let sessionAccessory = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)

    private static func load(_ path: String) -> AccessoryProfile {
        do {
            return try ProfileLoader.load(bytes: RepositoryFile.required(path))
        } catch {
            fuzzFailure("\(path) does not load: \(error)")
        }
    }
}

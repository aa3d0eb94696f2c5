import AwareCore
import AwareWire

/// What opening a radio established: the interface, its wiphy, the chosen path and the device
/// frames go through. ``run(interfaceIndex:familyID:through:)`` is the setup sequence, kept
/// apart from the sockets so it can be checked against a scripted kernel.
struct NL80211RadioSetup: Hashable, Sendable {
    var familyID: UInt16
    var interface: NL80211Interface
    var wiphy: NL80211Wiphy
    var path: NL80211DiscoveryPath
    var device: NL80211Device
    var address: MACAddress?
    /// On the function-offload path: what the wiphy lacks for PASN Authentication frames on
    /// the NAN device (``NL80211DiscoveryPath/missingForOffloadPairing(_:)``); empty when
    /// pairing can run, and on the other paths.
    var pairingMissing: [String] = []

    /// The master preference this radio starts NAN with: an ordinary device's, neither the
    /// reserved 1 / 255 nor high enough to make it the likely anchor master.
    static let masterPreference: UInt8 = 128
    /// ENODEV (`asm-generic/errno-base.h`).
    static let noSuchDevice: Int32 = 19

    /// GET_INTERFACE, GET_WIPHY (split dump), the path choice; on the NAN-device and
    /// function-offload paths NEW_INTERFACE (NAN, socket-owned) and START_NAN; then
    /// REGISTER_FRAME for every frame discovery and pairing need (on the offload path only PASN
    /// Authentication frames, and only where the NAN interface type allows them). `transport` must be the socket that will read the events:
    /// registrations and a socket-owned NAN device's events go to it alone.
    static func run(
        interfaceName: String,
        interfaceIndex: UInt32,
        familyID: UInt16,
        through transport: any NL80211Transport
    ) throws(RadioError) -> NL80211RadioSetup {
        let replies: [GenericNetlinkMessage]
        do {
            replies = try transport.perform(.getInterface(familyID: familyID, interfaceIndex: interfaceIndex))
        } catch .kernelRefused(_, Self.noSuchDevice, _) {
            // nl80211 answers ENODEV for a netdev without a wireless device (eth0, lo).
            throw RadioError.notNANCapable(
                interface: interfaceName,
                missing: ["a wiphy: it is not a wireless interface (GET_INTERFACE answered ENODEV)"]
            )
        }
        guard let reply = replies.first else {
            throw RadioError.invalidReply("no reply to GET_INTERFACE for \(interfaceName)")
        }
        let interface = try NL80211Interface(reply: reply)
        let wiphy = try NL80211Wiphy(dump: try transport.perform(.getWiphy(familyID: familyID, wiphy: interface.wiphy)))
        let path = try NL80211DiscoveryPath.select(interface: interface, wiphy: wiphy)
        let device: NL80211Device
        let address: MACAddress?
        var registrations = NL80211FrameRegistration.nan
        var pairingMissing: [String] = []
        switch path {
        case .nanDevice, .functionOffload:
            let request = NL80211Request.newNANInterface(
                familyID: familyID,
                wiphy: interface.wiphy,
                name: "aware\(interfaceIndex)"
            )
            guard let created = try transport.perform(request).first else {
                throw RadioError.invalidReply("no reply to NEW_INTERFACE")
            }
            let nan = try NL80211Interface(reply: created)
            guard let wdev = nan.wdev else {
                throw RadioError.missingAttribute(
                    command: created.command,
                    attribute: NL80211Constants.Attribute.wdev.rawValue
                )
            }
            device = .wirelessDevice(wdev)
            address = nan.address
            // Bands 0: "don't care", the driver's own choice (`nl80211_start_nan`).
            _ = try transport.perform(
                try .startNAN(familyID: familyID, device: device, masterPreference: masterPreference, bands: 0)
            )
            if path == .functionOffload {
                // The driver's discovery engine consumes SDFs itself; only PASN Authentication
                // frames are registered, and only where the NAN interface type may carry them.
                pairingMissing = NL80211DiscoveryPath.missingForOffloadPairing(wiphy)
                registrations = pairingMissing.isEmpty ? [.pasnAuthentication] : []
            }
        case .unsynchronizedFrames:
            guard let netdev = interface.device else {
                throw RadioError.invalidReply(
                    "GET_INTERFACE for ifindex \(interfaceIndex) names neither ifindex nor wdev"
                )
            }
            device = netdev
            address = interface.address
        }
        for registration in registrations {
            _ = try transport.perform(.registerFrame(familyID: familyID, device: device, registration: registration))
        }
        return NL80211RadioSetup(
            familyID: familyID,
            interface: interface,
            wiphy: wiphy,
            path: path,
            device: device,
            address: address,
            pairingMissing: pairingMissing
        )
    }
}

import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// A real accessory reached through a real radio (`--target nl80211:IFACE`): the phone runs on
/// an ``NL80211Radio`` under the wall clock. The runner did not start the accessory: the PIN, a
/// power cycle and a factory reset come from the operator (``OperatorAccess``: `--pin`,
/// `--pin-command`, `--reboot-command`, `--reset-command`, prompts); tests that need what none of
/// them gives, or a profile variant, are skipped with that reason.
public struct RadioTarget: AccessoryTarget {
    public let interface: String
    public private(set) var capabilities: TargetCapabilities
    /// A real accessory keeps every phone that paired in earlier tests: the tests' phones come
    /// back as the same few devices.
    public let phoneIdentities: PhoneIdentityPool? = PhoneIdentityPool()
    public let operatorAccess: OperatorAccess
    /// Called, on the radio's thread, when the phone's radio cannot go on (its interface went
    /// down or away, ``RadioError/endsTheRadio``): nothing a test does can help then. The
    /// command line prints it and exits 3 (docs/guides/nl80211.md); nil ignores it.
    public var radioLost: (@Sendable (RadioError) -> Void)?
    /// The interface's own MAC address, as ``probe()`` found it: put back after every session that
    /// gave the interface the phone's NMI of the test.
    public private(set) var interfaceAddress: MACAddress?

    public init(interface: String, profile: ProfileFacts, operatorAccess: OperatorAccess = OperatorAccess()) {
        self.interface = interface
        self.operatorAccess = operatorAccess
        let outside = "the accessory on nl80211:\(interface) is a device the runner did not start"
        capabilities = TargetCapabilities(
            target: "nl80211:\(interface)",
            profile: profile,
            restart: operatorAccess.restartAbility(controlled: false, outside: outside, control: false),
            reconfigure: .unavailable(reason: outside),
            factoryReset: operatorAccess.resetAbility(controlled: false, outside: outside, control: false),
            eventLog: .unavailable(reason: OperatorAccess.noEventLog("nl80211:\(interface)"))
        )
    }

    public var name: String { "nl80211:\(interface)" }
    public var clock: TestClock { .wall }

    /// Opens and closes the radio once, so that a missing cfg80211, a missing interface or a
    /// wiphy that cannot carry NAN is reported before any test runs (exit status 3). The path it
    /// takes decides what the tests can have: over NAN USD there is no cluster.
    public mutating func probe() throws(RadioError) {
        let radio = try NL80211Radio(interfaceName: interface, scheduler: WallClockScheduler())
        let path = radio.path
        interfaceAddress = radio.interface.address
        radio.close()
        if path == .unsynchronizedFrames {
            capabilities.cluster = .unavailable(
                reason: "nl80211:\(interface) carries NAN USD only (a station interface: remain-on-channel and "
                    + "frames, no NAN synchronization; docs/guides/nl80211.md)"
            )
            capabilities.protectedFrames = .unavailable(
                reason: "nl80211:\(interface) is a station interface, from which Linux sends no protected NAN "
                    + "frame and to which it hands up none (docs/guides/nl80211.md, \"Protected frames\")"
            )
        }
    }

    public func openSession(_ request: SessionRequest) throws -> any TargetSession {
        guard request.variant == nil else { throw TargetError("\(name) cannot change the accessory's profile") }
        guard request.faults.isEmpty else { throw TargetError("\(name) cannot switch the accessory's faults") }
        // A radio hears unicast frames only for its own address: the phone of this test takes
        // its NMI by giving the interface that address, as a phone randomizes its NMI. The
        // accessory keeps the pairwise key of every NMI that paired, and drops unprotected frames
        // from it, so a phone that came back under one NMI in every test could not bootstrap
        // after the first pairing (docs/guides/nl80211.md).
        var restore: MACAddress?
        if let address = request.phoneAddress, let own = interfaceAddress, address != own {
            try NL80211Socket.setAddress(of: interface, to: address)
            restore = own
        }
        do {
            return try RadioSession(interface: interface, radioLost: radioLost, restoring: restore)
        } catch {
            if let restore { try? NL80211Socket.setAddress(of: interface, to: restore) }
            throw error
        }
    }
}

/// A session on a real radio: the phone runs on the radio's wall-clock scheduler thread and
/// the test waits in real time, as on the socket air. No display can be read over the air, so
/// ``displayedPINs`` stays empty.
final class RadioSession: TargetSession {
    let scheduler: WallClockScheduler
    let radio: NL80211Radio

    /// The interface's own address, put back when the session closes.
    let restoring: MACAddress?

    init(interface: String, radioLost: (@Sendable (RadioError) -> Void)?, restoring: MACAddress?) throws {
        self.restoring = restoring
        scheduler = WallClockScheduler()
        radio = try NL80211Radio(interfaceName: interface, scheduler: scheduler)
        radio.errorHandler = { error in
            if error.endsTheRadio { radioLost?(error) }
        }
        scheduler.runInBackground()
    }

    var air: any Air { radio }
    var accessoryAddress: MACAddress? { nil }
    var now: Instant { scheduler.now }
    var accessoryEvents: [String] { [] }
    var displayedPINs: [DisplayedPIN] { [] }

    var requiredPhoneAddress: MACAddress? { radio.address }
    var onlyUnsynchronized: Bool { radio.path == .unsynchronizedFrames }

    func perform(_ work: () -> Void) {
        scheduler.sync(work)
    }

    func run(until condition: @escaping () -> Bool, timeout: Interval) -> Bool {
        let deadline = scheduler.now + timeout
        while true {
            if scheduler.sync(condition) { return true }
            if scheduler.now >= deadline { return false }
            usleep(5_000)
        }
    }

    func updateServiceInfo(service: String, txt: [String: String]) throws {
        throw TargetError("\(radio.interface.name ?? "the radio")'s accessory cannot be told to update its publish")
    }

    func close() {
        scheduler.stop()
        radio.close()
        if let restoring, let name = radio.interface.name {
            // Best effort: a failure here shows at the next session's change of address.
            try? NL80211Socket.setAddress(of: name, to: restoring)
        }
    }
}

import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// What the runner tests: an accessory it can reach over an air. Three kinds:
/// `embedded` (in-process, simulated air, virtual time), `spawn` (child `accessory-emu`
/// processes on a private socket air) and `socket` (an accessory someone else started).
public protocol AccessoryTarget: Sendable {
    /// "embedded", "spawn", "socket:/path".
    var name: String { get }
    var capabilities: TargetCapabilities { get }
    var clock: TestClock { get }
    /// Opens a session for one test: an air, the accessory on it (started, when the target
    /// owns it), and a scheduler the phone runs on.
    func openSession(_ request: SessionRequest) throws -> any TargetSession
    /// The phone identities the run's tests share, for a target whose accessory outlives a
    /// test and so keeps the pairings of earlier tests (``PhoneIdentityPool``); nil where
    /// every test meets a fresh accessory.
    var phoneIdentities: PhoneIdentityPool? { get }
    /// How the runner gets the PIN and power-cycles or resets a device it does not drive itself.
    var operatorAccess: OperatorAccess { get }
}

extension AccessoryTarget {
    public var phoneIdentities: PhoneIdentityPool? { nil }
    public var operatorAccess: OperatorAccess { OperatorAccess() }
}

/// What a test asks of the accessory for its session.
public struct SessionRequest: Hashable, Sendable {
    /// Seeds the air and the accessory, so a session replays from its seed.
    public var seed: UInt64
    /// Changes to the profile; only targets that can reconfigure honour them.
    public var variant: ProfileVariant?
    /// Faults to switch on (`accessory-emu --fault`); only for targets the runner owns.
    public var faults: [String]
    /// Unsynchronized service discovery (USD) for the accessory.
    public var unsynchronized: Bool
    /// How far the phone stands from the accessory, in metres. The simulated air turns it
    /// into path loss; on the socket air it sets the RSSI each side reports (the same
    /// log-distance model), so range tests run on every target the runner owns.
    public var phoneDistance: Double
    /// The performance mode the accessory's listener runs in (`accessory-emu --mode`); nil
    /// keeps the profile's default. Only targets the runner owns honour it.
    public var accessoryMode: PerformanceMode?
    /// The NMI the runner gives this session's phone (one of its identities, ``PhoneIdentityPool``),
    /// where it chooses one. A target whose air fixes the phone's address (a radio hears unicast
    /// frames only for its own) takes it by giving its interface this MAC address for the session,
    /// as a phone randomizes its NMI; other targets ignore it.
    public var phoneAddress: MACAddress?

    public init(
        seed: UInt64,
        variant: ProfileVariant? = nil,
        faults: [String] = [],
        unsynchronized: Bool = false,
        phoneDistance: Double = 2,
        accessoryMode: PerformanceMode? = nil
    ) {
        self.seed = seed
        self.variant = variant
        self.faults = faults
        self.unsynchronized = unsynchronized
        self.phoneDistance = phoneDistance
        self.accessoryMode = accessoryMode
    }

    /// The RSSI a 20 dBm transmitter `phoneDistance` away gives on channel 6 under the
    /// simulated air's indoor model, for airs that have no positions.
    public var linkRSSIDBm: Int {
        Int(
            PathLossModel.indoor.receivedPower(
                transmitPowerDBm: 20,
                distance: max(1, phoneDistance),
                frequencyMHz: 2437
            )
            .rounded()
        )
    }
}

/// One test's connection to the accessory. Used from the test's own thread.
public protocol TargetSession: AnyObject {
    var air: any Air { get }
    /// The accessory's NMI, when the target knows it (it started the accessory).
    var accessoryAddress: MACAddress? { get }
    /// Current time on the air's clock.
    var now: Instant { get }
    /// Runs `work` on the air's scheduler and waits for it.
    func perform(_ work: () -> Void)
    /// Lets time pass until `condition` (evaluated on the scheduler) holds or `timeout`
    /// passes; returns whether it held.
    func run(until condition: @escaping () -> Bool, timeout: Interval) -> Bool
    /// Asks the accessory to announce new service info (a publish update), if the target
    /// can drive it.
    func updateServiceInfo(service: String, txt: [String: String]) throws
    /// The accessory's own events so far (name and JSON line), for evidence. PINs are not
    /// in them: those are in ``displayedPINs``.
    var accessoryEvents: [String] { get }
    /// What the accessory's display showed, oldest first: what a person would read off it.
    var displayedPINs: [DisplayedPIN] { get }
    /// A power cycle: the accessory stops and starts again with the state it keeps (its store,
    /// its NIK), and with `newAddress` under a new NMI.
    func restartAccessory(newAddress: MACAddress?) throws
    /// The factory reset (`accessory-emu reset`), then a start: every pairing is gone.
    func factoryResetAccessory() throws
    /// The reverse role: types `pin` (the one the publishing phone shows) into the accessory,
    /// for the pairing it started as a subscriber (event `pin_requested`). Where the runner
    /// drives the accessory: in process, or through its control socket (`enter-pin`).
    func enterPINOnAccessory(_ pin: String) throws
    /// Whether ``enterPINOnAccessory(_:)`` can work on this target.
    var entersPINOnAccessory: Bool { get }
    /// Ends the session: the accessory stops (when owned) and the air is left.
    func close()
    /// The NMI the phone must use, where the air decides it: a real radio acknowledges and passes
    /// up only unicast frames sent to its own address, so there the phone is the radio. nil:
    /// any address.
    var requiredPhoneAddress: MACAddress? { get }
    /// Whether the air carries only unsynchronized discovery (NAN USD over remain-on-channel on a
    /// station interface: no cluster, no discovery windows), so the phone runs USD too.
    var onlyUnsynchronized: Bool { get }
}

extension TargetSession {
    public var requiredPhoneAddress: MACAddress? { nil }
    public var onlyUnsynchronized: Bool { false }
}

/// The target cannot do what the test needs; reported as an environment error.
public struct TargetError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension TargetSession {
    public func restartAccessory(newAddress: MACAddress?) throws {
        throw TargetError("this target cannot restart the accessory")
    }

    public func factoryResetAccessory() throws {
        throw TargetError("this target cannot reset the accessory")
    }

    public func enterPINOnAccessory(_ pin: String) throws {
        throw TargetError("this target cannot type a PIN into the accessory")
    }

    public var entersPINOnAccessory: Bool { false }
}

/// A PIN the accessory's display showed, and the phone it was shown for.
public struct DisplayedPIN: Hashable, Sendable {
    public var pin: String
    /// The phone that asked to pair (nil when the display did not say).
    public var peer: MACAddress?

    public init(pin: String, peer: MACAddress?) {
        self.pin = pin
        self.peer = peer
    }
}

extension TargetSession {
    /// The PINs shown for `phone`, oldest first: on a shared air several phones may pair at once,
    /// and each person reads the PIN meant for them.
    public func displayedPINs(for phone: MACAddress) -> [String] {
        displayedPINs.filter { $0.peer == nil || $0.peer == phone }.map(\.pin)
    }
}

/// Reads a `pin_displayed` event line (docs/reference/events.md), if it is one.
func displayedPIN(inEventLine line: String) -> DisplayedPIN? {
    guard let fields = EventFields(line: line), fields.string("event") == "pin_displayed",
        let pin = fields.string("pin")
    else { return nil }
    return DisplayedPIN(pin: pin, peer: fields.string("peer").flatMap(MACAddress.init(string:)))
}

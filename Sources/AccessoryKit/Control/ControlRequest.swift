import AwareCore
import AwareProtocol
import AwareWire

/// One command to a running accessory on its control channel (`accessory-emu --control PATH`,
/// or `--control-stdin`): one JSON object per line, `{"command": "...", ...}`, optionally with an
/// `"id"` the reply echoes (docs/reference/control.md). These are the lifecycle and environment steps a
/// test harness performs on a device under test, as Matter's harness drives its apps.
public enum ControlRequest: Hashable, Sendable {
    /// Who the accessory is and what it is doing now.
    case status
    /// The phones in the pairing store (their NMIs and when they paired; never a key).
    case pairedDevices
    /// A power cycle in place: the firmware stops, the state directory is read again from disk,
    /// the boot count goes up, and the accessory starts again, after `offSeconds` of silence.
    /// With `nmi`, it comes back under that address (an accessory that rotates its NMI).
    case reboot(nmi: MACAddress?, offSeconds: Double)
    /// Forgets every paired phone, the own NIK and the identity, then starts as a new device.
    case factoryReset
    /// Replaces the active faults (`accessory-emu --fault`); they take effect through a reboot,
    /// as firmware flags would.
    case setFaults([AccessoryFault])
    /// `setFaults([])`.
    case clearFaults
    /// Where the accessory stands, in metres, with the phone at the origin: the link budget on
    /// the socket air follows the same log-distance model the simulated air uses.
    case setPosition(x: Double, y: Double)
    /// The accessory's transmit power, in dBm.
    case setTransmitPower(dBm: Int)
    /// A publish update with new TXT entries (docs/reference/events.md, `update-service`).
    case updateService(service: String, txt: [String: String])
    /// Asks every phone with a data path to move the NDL to the schedule of `mode` (the
    /// accessory's performance mode when nil) with a Schedule Request (NAF subtype 10).
    case renegotiateSchedule(mode: PerformanceMode?)
    /// Stops the emulator the way SIGTERM does (state written, socket removed).
    case shutdown

    /// The command names, as written on the wire, in the order `--help` lists them.
    public static let commandNames = [
        "status", "paired-devices", "reboot", "factory-reset", "set-faults", "clear-faults", "set-position",
        "set-tx-power", "update-service", "renegotiate-schedule", "shutdown",
    ]

    /// The name this request has on the wire.
    public var commandName: String {
        switch self {
        case .status: "status"
        case .pairedDevices: "paired-devices"
        case .reboot: "reboot"
        case .factoryReset: "factory-reset"
        case .setFaults: "set-faults"
        case .clearFaults: "clear-faults"
        case .setPosition: "set-position"
        case .setTransmitPower: "set-tx-power"
        case .updateService: "update-service"
        case .renegotiateSchedule: "renegotiate-schedule"
        case .shutdown: "shutdown"
        }
    }

    /// Transmit powers a control request may set: what 2.4 GHz radios can do.
    public static let transmitPowerRange = -10...30
    /// The farthest a control request may place the accessory, in metres.
    public static let maximumDistance = 10_000.0
    /// The longest power-off a reboot may ask for, in seconds.
    public static let maximumOffSeconds = 60.0
}

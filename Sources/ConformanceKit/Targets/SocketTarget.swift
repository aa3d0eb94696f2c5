import AwareCore
import AwareRadio
import AwareWire

/// An accessory someone else started on a socket air (`accessory-emu --air socket:PATH`, or
/// firmware built for the host that speaks docs/reference/socket-air.md). The runner restarts and
/// resets it through its control socket (`--control PATH`, docs/reference/control.md, which also
/// switches its faults), or through the operator (``OperatorAccess``: `--reboot-command`,
/// `--reset-command`, a prompt); without either, tests that need them are skipped naming the
/// option. Profile variants need an accessory the runner starts.
public struct SocketTarget: AccessoryTarget {
    public let path: String
    /// The accessory's control socket, when it has one.
    public let controlPath: String?
    public let capabilities: TargetCapabilities

    /// The air shares one virtual clock between its processes (`socket:PATH?lockstep`).
    public let lockstep: Bool
    /// The accessory keeps every phone that paired in earlier tests: the tests' phones come
    /// back as the same few devices.
    public let phoneIdentities: PhoneIdentityPool? = PhoneIdentityPool()
    public let operatorAccess: OperatorAccess

    public init(
        path: String,
        profile: ProfileFacts,
        controlPath: String? = nil,
        lockstep: Bool = false,
        operatorAccess: OperatorAccess = OperatorAccess()
    ) {
        self.path = path
        self.controlPath = controlPath
        self.lockstep = lockstep
        self.operatorAccess = operatorAccess
        let outside = "the accessory on socket:\(path) was started outside the runner"
        let controlled = controlPath != nil
        capabilities = TargetCapabilities(
            target: "socket:\(path)",
            profile: profile,
            restart: operatorAccess.restartAbility(controlled: controlled, outside: outside, control: true),
            reconfigure: .unavailable(reason: outside),
            factoryReset: operatorAccess.resetAbility(controlled: controlled, outside: outside, control: true),
            publishUpdate: controlled
                ? .available
                : .unavailable(reason: "\(outside): give --control PATH for accessory-emu (update-service)"),
            eventLog: .unavailable(reason: OperatorAccess.noEventLog("socket:\(path)"))
        )
    }

    public var name: String { "socket:\(path)" }
    public var clock: TestClock { .wall }

    public func openSession(_ request: SessionRequest) throws -> any TargetSession {
        guard request.variant == nil else {
            throw TargetError("socket:\(path) cannot change the accessory's profile")
        }
        guard let controlPath else {
            guard request.faults.isEmpty else {
                throw TargetError("socket:\(path) cannot switch the accessory's faults without --control")
            }
            return try WallClockSession(path: path, rssiDBm: request.linkRSSIDBm, lockstep: lockstep)
        }
        let control = try AccessoryControlClient(path: controlPath)
        if !request.faults.isEmpty {
            do {
                try control.setFaults(request.faults)
            } catch {
                control.close()
                throw error
            }
        }
        return try ControlledSocketSession(
            path: path,
            rssiDBm: request.linkRSSIDBm,
            lockstep: lockstep,
            control: control,
            restoreFaults: !request.faults.isEmpty
        )
    }
}

/// A session with an accessory started outside the runner that has a control socket.
final class ControlledSocketSession: WallClockSession {
    let control: AccessoryControlClient
    let restoreFaults: Bool
    private var address: MACAddress?

    init(path: String, rssiDBm: Int, lockstep: Bool, control: AccessoryControlClient, restoreFaults: Bool) throws {
        self.control = control
        self.restoreFaults = restoreFaults
        address = try control.request("status")["nmi"]?.stringValue.flatMap(MACAddress.init(string:))
        try super.init(path: path, rssiDBm: rssiDBm, lockstep: lockstep)
    }

    override var accessoryAddress: MACAddress? { address }

    override func restartAccessory(newAddress: MACAddress?) throws {
        address = try control.reboot(newAddress: newAddress) ?? address
    }

    override func factoryResetAccessory() throws {
        address = try control.factoryReset() ?? address
    }

    override func updateServiceInfo(service: String, txt: [String: String]) throws {
        try control.updateService(service, txt: txt)
    }

    override func enterPINOnAccessory(_ pin: String) throws {
        try control.enterPIN(pin, at: lockstepTime)
    }

    override var entersPINOnAccessory: Bool { true }

    override func close() {
        super.close()
        if restoreFaults { _ = try? control.request("clear-faults") }
        control.close()
    }
}

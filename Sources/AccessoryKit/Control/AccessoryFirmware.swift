import AwareCore
import AwareDevice
import AwareRadio
import AwareWire

/// The accessory across power cycles: what survives a reboot (the profile, the air it stands
/// on, the state directory) and the ``Accessory`` of the current boot. The control channel
/// (``ControlRequest``) and the runner's embedded target act on it; everything runs on the air's
/// scheduler, as the accessory itself does.
public final class AccessoryFirmware {
    public let profile: AccessoryProfile
    public let air: any Air
    /// The options of the current boot (its faults, address and boot count).
    public private(set) var options: AccessoryOptions
    /// Where pairings (and, when ``countsBootsOnDisk``, the identity) are kept across boots.
    public let state: AccessoryStateDirectory?
    /// True when `state` holds the identity and the boot count (`accessory-emu --state-dir`);
    /// false when boots are counted here (the runner's embedded target).
    public let countsBootsOnDisk: Bool
    /// The listener's performance mode, kept across boots as `--mode` is.
    public let performanceMode: PerformanceMode?
    public private(set) var accessory: Accessory
    public private(set) var isRunning = false
    /// Where the accessory stands (the phone is at the origin) and how loud it transmits.
    public private(set) var position: StationConfiguration.Position
    public private(set) var transmitPowerDBm = AccessoryLinkBudget.defaultTransmitPowerDBm
    /// When the current boot started, on the air's clock.
    public private(set) var bootedAt: Instant
    /// True while a reboot keeps the radio off (`reboot` with `offSeconds`).
    public private(set) var isPoweredOff = false

    public var eventHandler: ((AccessoryEvent) -> Void)? { didSet { wire() } }
    public var pinDisplayHandler: ((PINDisplay) -> Void)? { didSet { wire() } }
    /// Told the new link whenever `set-position` or `set-tx-power` changes it; the host applies it
    /// to its air (the socket air has no positions of its own).
    public var linkHandler: ((AccessoryLinkBudget) -> Void)?
    /// Called for `shutdown`; the host stops its executor.
    public var shutdownHandler: (() -> Void)?
    /// Whether the address was fixed by the profile or the command line, so a boot keeps it
    /// rather than the stored one.
    private var addressIsFixed: Bool
    /// The start a reboot with `offSeconds` has scheduled.
    private var powerOn: ScheduledWork?

    public init(
        profile: AccessoryProfile,
        air: any Air,
        options: AccessoryOptions,
        state: AccessoryStateDirectory? = nil,
        countsBootsOnDisk: Bool = false,
        addressIsFixed: Bool = false,
        performanceMode: PerformanceMode? = nil
    ) {
        self.profile = profile
        self.air = air
        self.options = options
        self.state = state
        self.countsBootsOnDisk = countsBootsOnDisk
        self.addressIsFixed = addressIsFixed || profile.radio.nmi != nil
        self.performanceMode = performanceMode
        position = options.position
        bootedAt = air.scheduler.now
        accessory = Accessory(profile: profile, air: air, options: options, pairingStore: state?.pairingStore)
        if let performanceMode { accessory.performanceMode = performanceMode }
    }

    /// The link the current position and transmit power give.
    public var linkBudget: AccessoryLinkBudget {
        AccessoryLinkBudget(distance: position.distance(to: .origin), transmitPowerDBm: transmitPowerDBm)
    }

    public func start() throws(AirError) {
        wire()
        try accessory.start()
        isRunning = true
        bootedAt = air.scheduler.now
    }

    /// Stops the accessory, and a power-on still pending from a reboot with `offSeconds`.
    public func stop() {
        if let powerOn {
            air.scheduler.cancel(powerOn)
            self.powerOn = nil
            isPoweredOff = false
        }
        guard isRunning else { return }
        accessory.stop()
        isRunning = false
    }

    /// A power cycle: stop, count the boot, build the next boot's accessory, start it (at once,
    /// or after `offSeconds` of silence on the air's clock).
    public func reboot(newAddress: MACAddress? = nil, offSeconds: Double = 0) throws(ControlFailure) {
        stop()
        if let newAddress {
            options.address = newAddress
            addressIsFixed = true
        }
        try countBoot(proposing: newAddress ?? accessory.address)
        try startNextBoot(after: offSeconds)
    }

    /// Forgets every pairing and the identity, then starts as a new device.
    public func factoryReset() throws(ControlFailure) -> FactoryResetSummary? {
        stop()
        var summary: FactoryResetSummary?
        if let state {
            do {
                summary = try state.factoryReset()
            } catch {
                throw ControlFailure(code: "state", message: "factory reset: \(error)")
            }
        }
        options.address = nil
        addressIsFixed = profile.radio.nmi != nil
        try countBoot(proposing: Accessory.defaultAddress(profile: profile, seed: options.seed))
        try startNextBoot(after: 0)
        return summary
    }

    /// Replaces the faults; they take effect through a reboot, as firmware flags would.
    public func setFaults(_ faults: Set<AccessoryFault>) throws(ControlFailure) {
        options.faults = faults
        try reboot()
    }

    public func move(to newPosition: StationConfiguration.Position) -> AccessoryLinkBudget {
        position = newPosition
        let budget = linkBudget
        linkHandler?(budget)
        return budget
    }

    public func setTransmitPower(dBm: Int) -> AccessoryLinkBudget {
        transmitPowerDBm = dBm
        let budget = linkBudget
        linkHandler?(budget)
        return budget
    }

    public func requestShutdown() { shutdownHandler?() }

    /// Counts the boot: in the state directory (which keeps the stored NMI unless `proposed` is
    /// fixed), or here.
    private func countBoot(proposing proposed: MACAddress) throws(ControlFailure) {
        guard let state, countsBootsOnDisk else {
            options.boot = (options.boot ?? 1) + 1
            return
        }
        do {
            let record = try state.boot(proposedAddress: proposed, profileFixesAddress: addressIsFixed)
            options.address = record.address
            options.boot = record.boots
        } catch {
            throw ControlFailure(code: "state", message: "state directory: \(error)")
        }
    }

    private func startNextBoot(after offSeconds: Double) throws(ControlFailure) {
        accessory = Accessory(profile: profile, air: air, options: options, pairingStore: state?.pairingStore)
        if let performanceMode { accessory.performanceMode = performanceMode }
        wire()
        guard offSeconds > 0 else {
            try startNow()
            return
        }
        isPoweredOff = true
        let scheduler = air.scheduler
        powerOn = scheduler.schedule(at: scheduler.now + .seconds(offSeconds)) { [weak self] in
            guard let self else { return }
            isPoweredOff = false
            powerOn = nil
            do throws(ControlFailure) {
                try startNow()
            } catch {
                eventHandler?(
                    AccessoryEvent(
                        name: "control_error",
                        time: air.scheduler.now,
                        fields: [("message", .string(error.message))],
                        text: "control: \(error.message)"
                    )
                )
            }
        }
    }

    private func startNow() throws(ControlFailure) {
        do {
            try start()
        } catch {
            throw ControlFailure(code: "air", message: "the accessory could not start again: \(error)")
        }
    }

    private func wire() {
        accessory.eventHandler = eventHandler
        accessory.pinDisplayHandler = pinDisplayHandler
    }
}

// MARK: - AccessoryLinkBudget

/// The link between the accessory and a phone at the origin: the RSSI either end measures and
/// whether it is above the receiver's sensitivity. It follows the simulated air's indoor
/// log-distance model on channel 6, so a distance means the same on every air.
public struct AccessoryLinkBudget: Hashable, Sendable {
    /// What a phone-class 2.4 GHz radio transmits, in dBm (the simulated air's default).
    public static let defaultTransmitPowerDBm = 20
    /// The minimum input level for 6 Mb/s OFDM, the rate NAN management frames use
    /// (IEEE 802.11-2020 Table 17-18): below it nothing is heard.
    public static let sensitivityDBm = LinkRate.minimumSensitivity.first?.signalDBm ?? -82

    public var distance: Double
    public var transmitPowerDBm: Int

    public init(distance: Double, transmitPowerDBm: Int) {
        self.distance = distance
        self.transmitPowerDBm = transmitPowerDBm
    }

    public var rssiDBm: Int {
        Int(
            PathLossModel.indoor.receivedPower(
                transmitPowerDBm: Double(transmitPowerDBm),
                distance: max(1, distance),
                frequencyMHz: 2437
            )
            .rounded()
        )
    }

    public var inRange: Bool { Double(rssiDBm) >= Self.sensitivityDBm }
}

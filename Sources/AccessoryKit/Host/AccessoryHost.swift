import AwareCore
import AwareDevice
import AwareRadio
import AwareWire
import Dispatch
import Foundation
import Logging
import Synchronization

/// Where the host's output goes: the accessory's events, its PIN display, the start banner and
/// warnings. `accessory-emu` prints them (text or JSON lines); the host itself never prints.
public protocol AccessoryHostOutput: Sendable {
    func print(_ event: AccessoryEvent)
    /// The PIN display channel: the only place a PIN may appear.
    func show(_ display: PINDisplay)
    func banner(_ lines: [String])
    func warn(_ text: String)
}

/// Runs one accessory on an air until it is stopped: the I/O edge of the emulator (clock,
/// sockets, signals, files). The accessory itself never touches any of these.
public final class AccessoryHost {
    let profile: AccessoryProfile
    let options: AccessoryOptions
    let capturePath: String?
    let output: any AccessoryHostOutput
    let controlFromStandardInput: Bool
    let socketRSSIDBm: Int
    /// `--state-dir`, locked for the process's lifetime: pairings, identity, boot count.
    let state: AccessoryStateDirectory?
    var pairingStore: PairingStore? { state?.pairingStore }
    /// `--control PATH`: the control socket, on the socket air.
    let controlPath: String?
    /// The NMI was given with `--nmi` (the profile's own is known from the profile).
    let addressIsFixed: Bool
    /// `--mode`: the listener's performance mode; nil keeps the profile's default.
    let performanceMode: PerformanceMode?
    /// On the socket air, the display also goes to the side channel (socket-air.md, type 3),
    /// where the runner reads it. `--no-display-side-channel` turns that off: the accessory then
    /// behaves as a real device, whose screen the runner cannot see.
    public var publishesDisplayOnAir = true

    public init(
        profile: AccessoryProfile,
        options: AccessoryOptions,
        capturePath: String?,
        output: any AccessoryHostOutput,
        controlFromStandardInput: Bool,
        socketRSSIDBm: Int,
        state: AccessoryStateDirectory?,
        controlPath: String?,
        addressIsFixed: Bool,
        performanceMode: PerformanceMode? = nil
    ) {
        self.performanceMode = performanceMode
        self.state = state
        self.controlPath = controlPath
        self.addressIsFixed = addressIsFixed
        self.socketRSSIDBm = socketRSSIDBm
        self.profile = profile
        self.options = options
        self.capturePath = capturePath
        self.output = output
        self.controlFromStandardInput = controlFromStandardInput
    }

    /// On the shared socket air, under the wall clock, until SIGINT or SIGTERM (or `shutdown`
    /// on the control channel).
    public func runOnSocketAir(path: String, lockstep: Bool = false) throws(AccessoryHostError) {
        let scheduler = WallClockScheduler()
        let air: SocketAir
        do {
            air = try SocketAir(path: path, scheduler: scheduler, rssiDBm: socketRSSIDBm, lockstep: lockstep)
        } catch {
            throw .air(error)
        }
        // Capture times are the scheduler's calendar; in lockstep the air's virtual time, so a
        // seed gives the same pcap bytes.
        let epoch = lockstep ? 0 : UInt64(clamping: scheduler.calendarTime(of: .zero).unixNanoseconds)
        let tap = try makeTap(epochNanoseconds: epoch)
        if let tap { air.addTap(tap) }
        var socketOptions = options
        // A shared air draws PINs and nonces from the system, as a product would; lockstep is
        // for replaying runs, so there they come from the seed, as on the simulated air.
        socketOptions.pinSource = lockstep ? .seeded : .systemRandom
        let firmware = AccessoryFirmware(
            profile: profile,
            air: air,
            options: socketOptions,
            state: state,
            countsBootsOnDisk: true,
            addressIsFixed: addressIsFixed,
            performanceMode: performanceMode
        )
        firmware.eventHandler = { [output] in output.print($0) }
        let publishesDisplay = publishesDisplayOnAir
        firmware.pinDisplayHandler = { [output, weak air] display in
            output.show(display)
            // The side channel stands in for the eyes of the person holding the phone.
            if publishesDisplay { air?.publishEvent(Array(display.json.serialized.utf8)) }
        }
        // No positions cross processes: the accessory decides the link for both ends.
        firmware.linkHandler = { [weak air] budget in
            air?.link = SocketAirLink(rssiDBm: budget.rssiDBm, inRange: budget.inRange)
        }
        firmware.shutdownHandler = { [scheduler] in scheduler.stop() }
        output.banner(banner(accessory: firmware.accessory, air: "socket:\(air.path)"))

        try serve(firmware, on: scheduler, tap: tap) { air.close() }
    }

    /// On a real radio through nl80211 (``NL80211Radio``), under the wall clock, until SIGINT
    /// or SIGTERM. The NMI is the radio's hardware address unless `--nmi` or the profile fixes
    /// one: the hardware acknowledges and passes up only frames sent to its own address.
    public func runOnRadio(interface: String) throws(AccessoryHostError) {
        let scheduler = WallClockScheduler()
        let radio: NL80211Radio
        do {
            radio = try NL80211Radio(interfaceName: interface, scheduler: scheduler)
        } catch {
            throw .radio(error)
        }
        let tap = try makeTap(epochNanoseconds: UInt64(clamping: scheduler.calendarTime(of: .zero).unixNanoseconds))
        if let tap { radio.addTap(tap) }
        var radioOptions = options
        radioOptions.pinSource = .systemRandom
        if !addressIsFixed, profile.radio.nmi == nil, let address = radio.address { radioOptions.address = address }
        // Without a NAN device there is no cluster to synchronise to: discovery is USD, as
        // wpa_supplicant runs it over remain-on-channel.
        if radio.path == .unsynchronizedFrames { radioOptions.unsynchronized = true }
        let firmware = AccessoryFirmware(
            profile: profile,
            air: radio,
            options: radioOptions,
            state: state,
            countsBootsOnDisk: true,
            addressIsFixed: addressIsFixed,
            performanceMode: performanceMode
        )
        firmware.eventHandler = { [output] in output.print($0) }
        firmware.pinDisplayHandler = { [output] in output.show($0) }
        firmware.shutdownHandler = { [scheduler] in scheduler.stop() }
        // An interface taken down or away ends the run (exit 3) instead of a warning per frame.
        let lostRadio = Mutex<RadioError?>(nil)
        radio.errorHandler = { [output, scheduler] error in
            guard error.endsTheRadio else {
                output.warn("radio: \(error)")
                return
            }
            lostRadio.withLock { $0 = error }
            scheduler.stop()
        }
        // A real link is what the room makes it: set-position and set-tx-power cannot change it.
        firmware.linkHandler = { [output] _ in
            output.warn("radio: set-position / set-tx-power change nothing on a real radio (the link is physical)")
        }
        output.banner(
            banner(
                accessory: firmware.accessory,
                air: "nl80211:\(interface) (\(radio.path))",
                unsynchronized: radioOptions.unsynchronized
            )
        )
        try serve(firmware, on: scheduler, tap: tap) { radio.close() }
        if let lost = lostRadio.withLock({ $0 }) { throw .radio(lost) }
    }

    static let logger = Logger(label: "awarebench.accessory-emu")

    /// Runs `firmware` on `scheduler` until a signal, `shutdown` or a failed start, with the
    /// control channels; then leaves the air (`closeAir`) and closes the capture. The socket
    /// air and the radio share it.
    private func serve(
        _ firmware: AccessoryFirmware,
        on scheduler: WallClockScheduler,
        tap: CaptureTap?,
        closeAir: () -> Void
    ) throws(AccessoryHostError) {
        var server: ControlServer?
        if let controlPath {
            do {
                server = try ControlServer(path: controlPath, firmware: firmware, scheduler: scheduler)
            } catch {
                closeAir()
                throw .control(error)
            }
        }
        let startFailure = Mutex<AirError?>(nil)
        scheduler.schedule(at: .zero) {
            do throws(AirError) {
                try firmware.start()
            } catch {
                startFailure.withLock { $0 = error }
                scheduler.stop()
            }
        }
        // The executor stops on a signal; the accessory then leaves the air on this thread,
        // which the stopped executor no longer uses.
        let signals = SignalWatcher { [scheduler] in
            AccessoryHost.logger.info("stopping on a signal")
            scheduler.stop()
        }
        if controlFromStandardInput {
            ControlChannel(firmware: firmware, scheduler: scheduler, output: output).startReading()
        }
        server?.acceptTrouble = { [output] in output.warn($0) }
        server?.start()
        Self.logger.debug(
            "serving",
            metadata: ["control": "\(controlPath ?? "none")", "stateDirectory": "\(state?.directory.path ?? "none")"]
        )
        scheduler.run()
        signals.cancel()
        server?.stop()
        if startFailure.withLock({ $0 }) == nil { firmware.stop() }
        closeAir()
        if let failure = startFailure.withLock({ $0 }) { throw .air(failure) }
        try closeCapture(tap)
    }

    /// On an in-process simulated air. With `duration`, as fast as possible for that many
    /// simulated seconds; otherwise paced to the wall clock until SIGINT or SIGTERM.
    public func runSimulated(duration: Double?) throws(AccessoryHostError) {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: options.seed))
        let tap = try makeTap(epochNanoseconds: CaptureTap.defaultEpochNanoseconds)
        if let tap { air.addTap(tap) }
        var simulatedOptions = options
        simulatedOptions.pinSource = .seeded
        let accessory = Accessory(profile: profile, air: air, options: simulatedOptions, pairingStore: pairingStore)
        if let performanceMode { accessory.performanceMode = performanceMode }
        accessory.eventHandler = { [output] in output.print($0) }
        accessory.pinDisplayHandler = { [output] display in output.show(display) }
        output.banner(banner(accessory: accessory, air: "sim (virtual time, seed \(options.seed))"))
        do {
            try accessory.start()
        } catch {
            throw .air(error)
        }
        let scheduler = air.virtualScheduler
        if let duration {
            scheduler.run(until: .zero + .seconds(duration))
        } else {
            let stopped = Atomic<Bool>(false)
            let signals = SignalWatcher { stopped.store(true, ordering: .relaxed) }
            let start = DispatchTime.now().uptimeNanoseconds
            while !stopped.load(ordering: .relaxed) {
                let elapsed = Instant(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
                if let next = scheduler.nextEventTime, next <= elapsed {
                    _ = scheduler.step()
                } else {
                    let wait = scheduler.nextEventTime.map { min(($0 - elapsed).nanoseconds, 50_000_000) } ?? 50_000_000
                    usleep(UInt32(max(100, wait / 1_000)))
                }
            }
            signals.cancel()
        }
        accessory.stop()
        try closeCapture(tap)
    }

    /// The `--capture` tap: it writes each frame as it arrives. A write that fails (a full
    /// disk) stops the capture but not the accessory, which a phone may be in the middle of
    /// using: the failure is a warning at once, and the exit status (3) at the end.
    private func makeTap(epochNanoseconds: UInt64) throws(AccessoryHostError) -> CaptureTap? {
        guard let capturePath else { return nil }
        let tap: CaptureTap
        do {
            tap = try CaptureTap(path: capturePath, epochNanoseconds: epochNanoseconds)
        } catch {
            throw .capture(error)
        }
        tap.failureHandler = { [output] error in
            output.warn("capture: \(error); the accessory keeps running without it")
        }
        return tap
    }

    /// Closes the capture file; a capture that stopped early is an error now.
    private func closeCapture(_ tap: CaptureTap?) throws(AccessoryHostError) {
        guard let tap else { return }
        do {
            try tap.close()
        } catch {
            throw .capture(error)
        }
    }

    private func banner(accessory: Accessory, air: String, unsynchronized: Bool? = nil) -> [String] {
        var lines = [
            "accessory-emu — \(profile.device.vendorName) \(profile.device.modelName)"
                + (profile.device.pairingName.map { " (\"\($0)\")" } ?? ""),
            "  NMI:        \(accessory.address)",
            "  air:        \(air)",
            "  discovery:  \(unsynchronized ?? options.unsynchronized ? "unsynchronized (USD, channel 6)" : "synchronized (joins or forms a cluster)")",
        ]
        for configuration in accessory.publishConfigurations {
            lines.append(
                "  publishes:  \(configuration.serviceName) (\(configuration.solicitation.rawValue), service ID \(configuration.serviceID))"
            )
        }
        lines.append("  mode:       \(accessory.performanceMode.rawValue) (data paths in the other mode are refused)")
        if let boot = options.boot { lines.append("  boot:       \(boot) (state kept across restarts)") }
        if !options.faults.isEmpty {
            lines.append("  faults:     \(options.faults.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        lines.append("  Ctrl-C stops it.")
        return lines
    }
}

/// Why the emulator could not run: the air, the radio or the capture file (exit status 3).
public enum AccessoryHostError: Error, CustomStringConvertible {
    case air(AirError)
    /// `--air nl80211:IFACE` could not be opened (no cfg80211, no such interface, not NAN
    /// capable); the error says which and how to check.
    case radio(RadioError)
    case capture(CaptureTapError)
    case control(UnixStreamError)

    public var description: String {
        switch self {
        case .air(let error): "cannot join the air: \(error)"
        case .radio(let error): "cannot use the radio: \(error)"
        case .control(let error): "control socket: \(error)"
        case .capture(let error): "capture: \(error)"
        }
    }
}

/// Turns SIGINT and SIGTERM into a call, so shutdown runs as ordinary code (flushing the
/// capture, removing the socket) instead of inside a signal handler.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

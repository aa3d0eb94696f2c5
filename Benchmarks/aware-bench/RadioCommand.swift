import ArgumentParser
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

struct RadioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radio",
        abstract: "SDFs per second and USD discovery latency through nl80211 radios, against the socket air.",
        discussion: """
            Two stations on two radios of one kernel (NL80211Radio on --interfaces A,B; \
            ci/uml/bench runs it on the two mac80211_hwsim radios of a user-mode Linux), and the \
            same two stations on the socket air (two SocketAirs in this process on a temporary \
            air directory under TMPDIR, each on its own wall-clock scheduler as two processes \
            would be): the baseline, measured in the same run on the same kernel, before the \
            kernel in each part.
            - frame rate: the station on A sends one fixed unsolicited Publish SDF (the \
            drone's: SDA with its matching filter, SDEA with the TXT record, DCEA, NPBA) on \
            channel 6, keeping --window frames handed to the air whose TX status has not come \
            back, until --frames frames or --seconds; the station on B, listening on channel \
            6, counts the copies it hears; --repetitions runs on each air, alternating, \
            and the one with the median received/s is reported. sent/s counts TX statuses from the first frame to \
            the last status, received/s copies heard from the first frame to the last copy; \
            delivery is heard / sent. Untimed: before the run A sends single frames until B \
            hears one (both radios on channel 6), and after it again, to see that B still hears.
            - discovery latency: --trials times, a fresh unsynchronized publisher on A \
            (unsolicited + solicited, the drone's publish) and a fresh active unsynchronized \
            subscriber on B (NANDevice, the radios' addresses as NMIs); the time from the \
            subscribe to the first matching discovery result, on the monotonic clock both \
            schedulers share. Both airs draw the same seeds, so their trials have the same \
            announcement phases and differ by what the path adds; on the kernel that includes \
            a fresh station's radio getting onto channel 6 (remain-on-channel).

            How to read it: "kernel ... = 0.25 x socket" means the kernel path carried a quarter \
            of the frames per second the socket air did on this machine; a latency ratio above \
            1 means discovery took longer over the kernel. Only the ratios are meant to be \
            compared across machines.

            Exits 3 (with the radio's error) when a radio cannot be opened or goes away; 1 when \
            B hears nothing from A on an air, stops hearing A during the frame-rate run (the \
            kernel's discovery part is then skipped), or no discovery trial matches on an air.
            """
    )

    @Option(help: "The two wireless interfaces, sender and publisher first: A,B.")
    var interfaces = "wlan0,wlan1"

    @Option(help: "Frames the station on A sends in each frame-rate run.")
    var frames = 2000

    @Option(help: "Longest a frame-rate run may send, in seconds (it stops at --frames or here).")
    var seconds = 10.0

    @Option(help: "Frames handed to the air whose TX status has not come back.")
    var window = 4

    @Option(help: "Frame-rate runs on each air, alternating; the one with the median received/s is reported.")
    var repetitions = 3

    @Option(help: "Discovery trials on each air.")
    var trials = 30

    @Option(help: "Seeds the discovery devices (their announcement phases).")
    var seed: UInt64 = 1

    @Flag(help: "Print only the JSON line.")
    var json = false

    var interfaceNames: [String] {
        interfaces.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    func validate() throws {
        let names = interfaceNames
        guard names.count == 2, names.allSatisfy({ !$0.isEmpty }), names[0] != names[1] else {
            throw ValidationError("--interfaces must name two different interfaces, A,B (got \"\(interfaces)\")")
        }
        guard frames >= 1, frames <= 10_000_000 else { throw ValidationError("--frames must be in 1...10000000") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
        guard window >= 1, window <= 256 else { throw ValidationError("--window must be in 1...256") }
        guard repetitions >= 1, repetitions <= 101 else { throw ValidationError("--repetitions must be in 1...101") }
        guard trials >= 1, trials <= 1000 else { throw ValidationError("--trials must be in 1...1000") }
    }

    func run() throws {
        let names = interfaceNames
        // The radios first: a kernel without them ends the run before anything is measured.
        let kernel: RadioAirPair
        do {
            kernel = try RadioAirPair.kernel(interfaces: names)
        } catch {
            throw BenchSupport.failure(3, "radio: \(error)")
        }
        defer { kernel.close() }
        let socket: RadioAirPair
        do {
            socket = try RadioAirPair.socket(addresses: kernel.addresses)
        } catch {
            throw BenchSupport.failure(3, "radio: cannot set up the socket air: \(error)")
        }
        defer { socket.close() }
        say(
            "radio: nl80211 \(names[0]) -> \(names[1]) (\(kernel.detail)), channel 6; baseline: the socket air, "
                + "two stations in this process; \(repetitions) x \(frames) frames, window \(window), at most "
                + "\(BenchSupport.fixed(seconds, 1)) s each; \(trials) discovery trials"
        )

        let setup = RadioFrameRate.Setup(frames: frames, window: window, seconds: seconds)
        say("frame rate (a \(RadioFrameRate.template(from: kernel.addresses[0]).count)-octet unsolicited Publish):")
        // Alternating runs, so that a busy moment on a shared machine moves both airs alike.
        var socketRuns: [RadioFrameRate] = []
        var kernelRuns: [RadioFrameRate] = []
        for _ in 0..<repetitions {
            socketRuns.append(try RadioFrameRate.measure(on: socket, setup))
            let run = try RadioFrameRate.measure(on: kernel, setup)
            try kernel.checkRadios()
            kernelRuns.append(run)
            guard run.hearsAfterward else { break }
        }
        let socketRate = RadioFrameRate.median(of: socketRuns)
        // A run after which B stopped hearing is the one to report: the later parts depend on it.
        let kernelRate = kernelRuns.last { !$0.hearsAfterward } ?? RadioFrameRate.median(of: kernelRuns)
        say(socketRate.line(label: "socket air", baseline: nil))
        say(kernelRate.line(label: "kernel", baseline: socketRate))

        say("discovery latency over USD (subscribe to match), \(trials) trials:")
        let socketLatency = try RadioDiscoveryLatency.measure(on: socket, trials: trials, seed: seed)
        say(socketLatency.line(label: "socket air", baseline: nil))
        // A radio that stopped hearing would only time out every trial: said once instead.
        var kernelLatency: RadioDiscoveryLatency?
        if kernelRate.hearsAfterward {
            let latency = try RadioDiscoveryLatency.measure(on: kernel, trials: trials, seed: seed)
            try kernel.checkRadios()
            say(latency.line(label: "kernel", baseline: socketLatency))
            kernelLatency = latency
        } else {
            say("  kernel     not measured: \(names[1]) no longer hears \(names[0]) after the frame-rate run")
        }
        if kernel.refusals > 0 {
            say("  the kernel refused \(kernel.refusals) request(s); the first: \(kernel.firstRefusal ?? "")")
        }

        var members: [(String, JSONValue)] = [
            ("interfaces", .array(names.map { .string($0) })),
            ("path", .string(kernel.pathName)),
            ("frames", .unsigned(UInt64(frames))), ("window", .unsigned(UInt64(window))),
            ("repetitions", .unsigned(UInt64(repetitions))),
            ("seconds", BenchSupport.json(seconds, 1)), ("trials", .unsigned(UInt64(trials))),
            ("seed", .unsigned(seed)), ("baseline", .string("socket")),
            ("kernelFrameRate", kernelRate.json), ("socketFrameRate", socketRate.json),
            ("sentInBaselines", BenchSupport.json(Self.ratio(kernelRate.sentPerSecond, socketRate.sentPerSecond))),
            (
                "receivedInBaselines",
                BenchSupport.json(Self.ratio(kernelRate.receivedPerSecond, socketRate.receivedPerSecond))
            ),
            ("kernelDiscovery", kernelLatency?.json ?? .null), ("socketDiscovery", socketLatency.json),
            (
                "discoveryMedianInBaselines",
                kernelLatency?.median.flatMap { kernel in
                    socketLatency.median.map { BenchSupport.json(Self.ratio(kernel, $0)) }
                } ?? .null
            ),
            ("kernelRefusals", .unsigned(UInt64(kernel.refusals))),
        ]
        if let refusal = kernel.firstRefusal { members.append(("kernelFirstRefusal", .string(refusal))) }
        BenchSupport.printJSONLine(benchmark: "radio", members)

        var failures: [String] = []
        for (label, rate) in [("the kernel", kernelRate), ("the socket air", socketRate)] where rate.received == 0 {
            failures.append("on \(label) \(names[1]) heard none of the frames \(names[0]) sent")
        }
        if kernelRate.received > 0, !kernelRate.hearsAfterward {
            failures.append(
                "on the kernel \(names[1]) stopped hearing \(names[0]) during the frame-rate run "
                    + "(\(kernelRate.received) of \(kernelRate.handedOver) frames heard) and did not hear it again "
                    + "within \(BenchSupport.fixed(RadioFrameRate.probeLimitSeconds, 0)) s"
            )
        }
        for (label, latency) in [("the kernel", kernelLatency), ("the socket air", socketLatency)]
        where latency?.latencies.isEmpty == true {
            failures.append("on \(label) no discovery trial matched")
        }
        if !failures.isEmpty {
            throw BenchSupport.failure(1, "radio: " + failures.joined(separator: "; "))
        }
    }

    private func say(_ line: String) {
        guard !json else { return }
        print(line)
        BenchSupport.flush()
    }

    static func ratio(_ value: Double, _ baseline: Double) -> Double { baseline > 0 ? value / baseline : 0 }
}

// MARK: - RadioAirPair

/// The two stations' airs of one measurement, station A's first: two `NL80211Radio`s on two
/// interfaces of one kernel, or two `SocketAir`s on one temporary air directory. Each air has a
/// wall-clock scheduler of its own, as two processes would, so a frame crosses the kernel (a
/// netlink request, the radios' medium, a netlink event; or a Unix datagram) between threads.
final class RadioAirPair {
    let schedulers: [WallClockScheduler]
    let airs: [any Air]
    /// The stations' NMIs: a radio acknowledges and passes up only unicast frames to its own
    /// hardware address (NL80211Radio), so the stations use the radios' addresses on both airs.
    let addresses: [MACAddress]
    /// The discovery path the radios chose, for people and for JSON.
    let detail: String
    let pathName: String
    private let closeAirs: () -> Void
    /// Requests the kernel refused (counted on the radios' schedulers, read from the main thread).
    private let lock = NSLock()
    private var refusalCount = 0
    private var firstRefusalText: String?
    private var lost: RadioError?

    private init(
        schedulers: [WallClockScheduler],
        airs: [any Air],
        addresses: [MACAddress],
        detail: String,
        pathName: String,
        close: @escaping () -> Void
    ) {
        self.schedulers = schedulers
        self.airs = airs
        self.addresses = addresses
        self.detail = detail
        self.pathName = pathName
        closeAirs = close
    }

    /// Opens both radios. They must carry whole frames (the USD or NAN-device path): on the
    /// function-offload path the driver builds the SDFs (docs/guides/nl80211.md).
    static func kernel(interfaces: [String]) throws(RadioError) -> RadioAirPair {
        var schedulers: [WallClockScheduler] = []
        var radios: [NL80211Radio] = []
        do throws(RadioError) {
            for name in interfaces {
                let scheduler = WallClockScheduler()
                let radio = try NL80211Radio(interfaceName: name, scheduler: scheduler)
                schedulers.append(scheduler)
                radios.append(radio)
                guard radio.path != .functionOffload else {
                    throw RadioError.notNANCapable(
                        interface: name,
                        missing: ["a path that carries whole SDFs (the driver's discovery engine builds its own)"]
                    )
                }
                guard radio.address != nil else {
                    throw RadioError.invalidReply("GET_INTERFACE for \(name) carries no hardware address")
                }
            }
        } catch {
            for radio in radios { radio.close() }
            throw error
        }
        let pair = RadioAirPair(
            schedulers: schedulers,
            airs: radios,
            addresses: radios.compactMap(\.address),
            detail: radios[0].path.description,
            pathName: radios[0].path == .unsynchronizedFrames ? "usd" : "nan-device",
            close: {
                for scheduler in schedulers { scheduler.stop() }
                for radio in radios { radio.close() }
            }
        )
        // Set before the schedulers run: nothing else touches the radios yet.
        for radio in radios { radio.errorHandler = { [weak pair] error in pair?.record(error) } }
        for scheduler in schedulers { scheduler.runInBackground() }
        return pair
    }

    /// Two socket airs in a new directory under the temporary directory (TMPDIR), removed on close.
    static func socket(addresses: [MACAddress]) throws -> RadioAirPair {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aware-bench-radio-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var schedulers: [WallClockScheduler] = []
        var airs: [SocketAir] = []
        do {
            for _ in addresses {
                let scheduler = WallClockScheduler()
                airs.append(try SocketAir(path: directory.path, scheduler: scheduler))
                schedulers.append(scheduler)
            }
        } catch {
            for air in airs { air.close() }
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        for scheduler in schedulers { scheduler.runInBackground() }
        return RadioAirPair(
            schedulers: schedulers,
            airs: airs,
            addresses: addresses,
            detail: "socket air \(directory.path)",
            pathName: "socket",
            close: {
                for scheduler in schedulers { scheduler.stop() }
                for air in airs { air.close() }
                try? FileManager.default.removeItem(at: directory)
            }
        )
    }

    /// Runs `body` on station `index`'s scheduler and waits for it.
    func on<T, E: Error>(_ index: Int, _ body: () throws(E) -> T) throws(E) -> T {
        try schedulers[index].sync(body)
    }

    /// CLOCK_MONOTONIC in nanoseconds: the clock both schedulers share.
    func sharedNow(_ index: Int) -> UInt64 {
        schedulers[index].sharedTimestamp(of: schedulers[index].now)
    }

    func close() { closeAirs() }

    var refusals: Int { lock.withLock { refusalCount } }
    var firstRefusal: String? { lock.withLock { firstRefusalText } }

    /// Throws exit status 3 when a radio went down or away (RadioError.endsTheRadio): what was
    /// measured after that is not the radio's.
    func checkRadios() throws {
        if let lost = lock.withLock({ lost }) { throw BenchSupport.failure(3, "radio: \(lost)") }
    }

    /// On a radio's scheduler: a refused frame or remain-on-channel, or the end of the radio.
    private func record(_ error: RadioError) {
        lock.withLock {
            if error.endsTheRadio {
                if lost == nil { lost = error }
                return
            }
            refusalCount += 1
            if firstRefusalText == nil { firstRefusalText = error.description }
        }
    }
}

// MARK: - RadioFrameRate

/// Part 1 and 2 of `radio`: how many SDFs one air carries per second from A to B.
struct RadioFrameRate {
    struct Setup {
        var frames: Int
        var window: Int
        var seconds: Double
    }

    /// Frames handed to the air, and TX statuses that came back for them.
    var handedOver: Int
    var statuses: Int
    var received: Int
    /// Frames B heard that were not A's Publish (other stations on the channel).
    var otherFrames: Int
    /// First frame to last TX status, and first frame to last copy heard.
    var senderSeconds: Double
    var receiverSeconds: Double
    /// Whether B still heard A after the run: a radio whose events overran may stop hearing.
    var hearsAfterward: Bool

    var sentPerSecond: Double { senderSeconds > 0 ? Double(statuses) / senderSeconds : 0 }
    var receivedPerSecond: Double { receiverSeconds > 0 ? Double(received) / receiverSeconds : 0 }
    var deliveryRatio: Double { handedOver > 0 ? Double(received) / Double(handedOver) : 0 }

    /// The Sequence Control field of a management frame: after Frame Control (2), Duration (2)
    /// and three addresses (18) (IEEE 802.11-2020 9.3.3.2).
    static let sequenceControlOffset = 22
    /// The frame body of a management frame starts after Sequence Control (9.3.3.2).
    static let bodyOffset = 24
    /// How long the warm-up waits for B to hear A (both radios getting onto channel 6).
    static let warmUpLimitSeconds = 5.0
    /// How long the check after the run waits for B to hear A again.
    static let probeLimitSeconds = 2.0
    /// B is done when nothing more arrived for this long after A's last TX status.
    static let drainQuietSeconds = 0.3

    /// The drone's unsolicited Publish (Profiles/drone.json as the accessory sends it, without
    /// the data-path attributes): SDA with the service ID and matching filter, SDEA with the
    /// Bonjour TXT record, DCEA and NPBA Advertise, in hostap's order (nan-wire-reference.md
    /// 1.3, 2.4, 2.5); multicast to the NAN Network ID from `sender`, Sequence Control 0.
    static func template(from sender: MACAddress) -> [UInt8] {
        let publish = RadioDiscoveryLatency.publishConfiguration
        let attributes: [NANAttribute] = [
            .serviceDescriptor(
                ServiceDescriptorAttribute(
                    serviceID: ServiceID(serviceName: publish.serviceName),
                    instanceID: 1,
                    type: .publish,
                    matchingFilter: publish.transmitMatchingFilter
                )
            ),
            .serviceDescriptorExtension(
                ServiceDescriptorExtensionAttribute(
                    instanceID: 1,
                    serviceUpdateIndicator: 0,
                    serviceInfo: publish.serviceInfo.map { .structured($0) }
                )
            ),
            .deviceCapabilityExtension(
                DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: true)
            ),
            .pairingBootstrapping(
                PairingBootstrappingAttribute(
                    dialogToken: 0,
                    type: .advertise,
                    status: .accepted,
                    methods: .pinCodeDisplay
                )
            ),
        ]
        return ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.action),
                address1: .nanNetworkID,
                address2: sender,
                address3: .nanNetworkID
            ),
            body: .serviceDiscovery(ServiceDiscoveryFrame(category: .publicAction, attributes: attributes))
        ).wireBytes
    }

    static func measure(on pair: RadioAirPair, _ setup: Setup) throws -> RadioFrameRate {
        let template = template(from: pair.addresses[0])
        let sender = FloodSender(template: template, total: setup.frames, window: setup.window)
        let receiver = FloodReceiver(template: template)
        try pair.on(1) {
            receiver.port = try pair.airs[1].attach(
                StationConfiguration(addresses: [pair.addresses[1]], name: "receiver"),
                receive: { [unowned receiver, unowned pair] reception in
                    receiver.receive(reception, at: pair.sharedNow(1))
                },
                transmitted: { _ in }
            )
            receiver.port?.listeningChannels = [.channel6]
        }
        try pair.on(0) {
            sender.port = try pair.airs[0].attach(
                StationConfiguration(addresses: [pair.addresses[0]], name: "sender"),
                receive: { _ in },
                transmitted: { [unowned sender, unowned pair] status in
                    sender.transmitted(status, at: pair.sharedNow(0))
                }
            )
            // On the USD path this keeps A's radio on channel 6 too, as a USD publisher's would be.
            sender.port?.listeningChannels = [.channel6]
        }
        defer {
            pair.on(0) { sender.port?.detach() }
            pair.on(1) { receiver.port?.detach() }
        }

        // Warm-up: B hears A (both radios on channel 6), then quiet, then B forgets it.
        guard probe(pair, sender, receiver, limit: warmUpLimitSeconds) else {
            let other = pair.on(1) { receiver.otherFrames }
            return RadioFrameRate(
                handedOver: 0,
                statuses: 0,
                received: 0,
                otherFrames: other,
                senderSeconds: 0,
                receiverSeconds: 0,
                hearsAfterward: false
            )
        }
        usleep(100_000)
        pair.on(1) { receiver.reset() }

        let deadline = pair.sharedNow(0) &+ UInt64(setup.seconds * 1e9)
        pair.on(0) { sender.start(at: pair.sharedNow(0), deadline: deadline) }
        // Statuses that never come back (a driver that drops them) end the wait a little later.
        _ = sender.finished.wait(timeout: .now() + setup.seconds + 5)
        // B is done when it heard every frame, or heard nothing more for a while.
        let handedOver = pair.on(0) { sender.handedOver }
        var last = (-1, -1)
        while true {
            let now = pair.on(1) { (receiver.received, receiver.otherFrames) }
            if now == last || now.0 >= handedOver { break }
            last = now
            usleep(UInt32(drainQuietSeconds * 1e6))
        }
        let sent = pair.on(0) {
            (count: sender.handedOver, statuses: sender.statuses, first: sender.firstHandOver, last: sender.lastStatus)
        }
        let heard = pair.on(1) { (count: receiver.received, other: receiver.otherFrames, last: receiver.lastHeard) }
        let start = sent.first ?? 0
        return RadioFrameRate(
            handedOver: sent.count,
            statuses: sent.statuses,
            received: heard.count,
            otherFrames: heard.other,
            senderSeconds: Double(sent.last > start ? sent.last - start : 0) / 1e9,
            receiverSeconds: Double(heard.last > start ? heard.last - start : 0) / 1e9,
            hearsAfterward: probe(pair, sender, receiver, limit: probeLimitSeconds)
        )
    }

    /// The run with the median received/s of `runs` (not empty).
    static func median(of runs: [RadioFrameRate]) -> RadioFrameRate {
        runs.sorted { $0.receivedPerSecond < $1.receivedPerSecond }[runs.count / 2]
    }

    /// Sends one frame at a time until B hears one more than it had, within `limit` seconds:
    /// whether A's radio sends on channel 6 and B's radio listens there and passes frames up.
    private static func probe(
        _ pair: RadioAirPair,
        _ sender: FloodSender,
        _ receiver: FloodReceiver,
        limit: Double
    ) -> Bool {
        let before = pair.on(1) { receiver.received }
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            pair.on(0) { sender.sendWarmUp() }
            usleep(20_000)
            if pair.on(1, { receiver.received }) > before { return true }
        }
        return false
    }

    func line(label: String, baseline: RadioFrameRate?) -> String {
        var line =
            "  \(label.padding(toLength: 11, withPad: " ", startingAt: 0))"
            + "sent \(BenchSupport.grouped(sentPerSecond))/s, received \(BenchSupport.grouped(receivedPerSecond))/s, "
            + "delivery \(BenchSupport.fixed(deliveryRatio, 3)) (\(BenchSupport.grouped(Double(received))) of "
            + "\(BenchSupport.grouped(Double(handedOver))) in \(BenchSupport.fixed(receiverSeconds, 3)) s)"
        if let baseline {
            line +=
                " = \(BenchSupport.fixed(RadioCommand.ratio(sentPerSecond, baseline.sentPerSecond), 3)) x socket sent, "
            line +=
                "\(BenchSupport.fixed(RadioCommand.ratio(receivedPerSecond, baseline.receivedPerSecond), 3)) x received"
        } else {
            line += "  [baseline]"
        }
        if otherFrames > 0 { line += "; \(otherFrames) other frames heard" }
        if !hearsAfterward { line += "; afterwards B no longer heard A" }
        return line
    }

    var json: JSONValue {
        .object([
            ("handedOver", .unsigned(UInt64(handedOver))),
            ("txStatuses", .unsigned(UInt64(statuses))),
            ("received", .unsigned(UInt64(received))),
            ("otherFrames", .unsigned(UInt64(otherFrames))),
            ("senderSeconds", BenchSupport.json(senderSeconds, 4)),
            ("receiverSeconds", BenchSupport.json(receiverSeconds, 4)),
            ("sentPerSecond", BenchSupport.json(sentPerSecond, 0)),
            ("receivedPerSecond", BenchSupport.json(receivedPerSecond, 0)),
            ("deliveryRatio", BenchSupport.json(deliveryRatio, 4)),
            ("hearsAfterward", .bool(hearsAfterward)),
        ])
    }
}

/// Station A of the frame rate: keeps `window` frames handed to the air until `total` went or
/// the deadline passed. Runs on A's scheduler; ``finished`` is signalled from there.
private final class FloodSender {
    let template: [UInt8]
    let total: Int
    let window: Int
    var port: (any AirPort)?
    let finished = DispatchSemaphore(value: 0)
    private(set) var handedOver = 0
    private(set) var statuses = 0
    private(set) var firstHandOver: UInt64?
    private(set) var lastStatus: UInt64 = 0
    private var deadline: UInt64 = .max
    private var done = false
    /// Cookie 0 marks the warm-up frames, whose statuses are not counted.
    private static let warmUpCookie: UInt64 = 0

    init(template: [UInt8], total: Int, window: Int) {
        self.template = template
        self.total = total
        self.window = window
    }

    func sendWarmUp() {
        port?.transmit(TxRequest(frame: frame(sequenceNumber: 0), channel: .channel6, cookie: Self.warmUpCookie))
    }

    func start(at now: UInt64, deadline: UInt64) {
        self.deadline = deadline
        firstHandOver = now
        for _ in 0..<min(window, total) { sendNext() }
    }

    func transmitted(_ status: TxStatus, at now: UInt64) {
        guard status.cookie != Self.warmUpCookie, !done else { return }
        statuses += 1
        lastStatus = now
        if handedOver < total, now < deadline {
            sendNext()
        } else if statuses == handedOver {
            done = true
            finished.signal()
        }
    }

    private func sendNext() {
        handedOver += 1
        let request = TxRequest(
            frame: frame(sequenceNumber: UInt16(truncatingIfNeeded: handedOver)),
            channel: .channel6,
            cookie: UInt64(handedOver)
        )
        port?.transmit(request)
    }

    private func frame(sequenceNumber: UInt16) -> [UInt8] {
        var frame = template
        let control = SequenceControl(sequenceNumber: sequenceNumber).rawValue
        frame[RadioFrameRate.sequenceControlOffset] = UInt8(truncatingIfNeeded: control)
        frame[RadioFrameRate.sequenceControlOffset + 1] = UInt8(truncatingIfNeeded: control >> 8)
        return frame
    }
}

/// Station B of the frame rate: counts the copies of A's Publish it hears (any Sequence
/// Control). Runs on B's scheduler.
private final class FloodReceiver {
    let template: [UInt8]
    var port: (any AirPort)?
    private(set) var received = 0
    private(set) var otherFrames = 0
    private(set) var lastHeard: UInt64 = 0

    init(template: [UInt8]) { self.template = template }

    func receive(_ reception: Reception, at now: UInt64) {
        let frame = reception.frame
        let header = RadioFrameRate.sequenceControlOffset
        let body = RadioFrameRate.bodyOffset
        guard frame.count == template.count, frame[..<header] == template[..<header],
            frame[body...] == template[body...]
        else {
            otherFrames += 1
            return
        }
        received += 1
        lastHeard = now
    }

    func reset() {
        received = 0
        otherFrames = 0
        lastHeard = 0
    }
}

// MARK: - RadioDiscoveryLatency

/// Part 3 of `radio`: subscribe-to-match latency of USD discovery between fresh devices.
struct RadioDiscoveryLatency {
    /// Seconds from the subscribe to the match, of the trials that matched.
    var latencies: [Double]
    var trials: Int
    /// Matches made by a solicited (unicast) Publish rather than an unsolicited one.
    var solicited: Int

    /// A trial that has not matched by then counts as missed.
    static let trialTimeoutSeconds = 3.0
    /// Between trials, with both devices gone: frames still on their way reach nobody.
    static let gapMicroseconds: UInt32 = 100_000

    /// The drone's publish (Profiles/drone.json): its service, matching filter, TXT record and
    /// PIN-display pairing advertisement; unsolicited and solicited.
    static let publishConfiguration = PublishConfiguration(
        serviceName: "_drone-service._udp",
        solicitation: .both,
        matchingFilter: MatchingFilter(items: [Array("drone".utf8), [], Array("v2".utf8)]),
        serviceInfo: ServiceSpecificInfo(
            bonjour: DNSSDTXTRecord([
                (key: "vendorName", value: "Example Inc"), (key: "modelName", value: "Example Model"),
                (key: "pairingName", value: "My Drone"), (key: "fw", value: "2.4.1"),
            ])
        ),
        pairing: PairingAdvertisement(),
        offersDataPaths: false,
        instanceID: 1
    )

    static func measure(on pair: RadioAirPair, trials: Int, seed: UInt64) throws -> RadioDiscoveryLatency {
        var result = RadioDiscoveryLatency(latencies: [], trials: trials, solicited: 0)
        for trial in 0..<trials {
            let trialSeed = seed &+ UInt64(trial) &* 0x9E37_79B9_7F4A_7C15
            let watch = MatchWatch(clock: { pair.sharedNow(1) })
            let publisher = try pair.on(0) {
                let device = NANDevice(
                    configuration: NANDevice.Configuration(name: "publisher", address: pair.addresses[0]),
                    air: pair.airs[0],
                    seed: trialSeed
                )
                try device.start()
                device.perform(.publish(publishConfiguration))
                return device
            }
            let subscriber = try pair.on(1) {
                let device = NANDevice(
                    configuration: NANDevice.Configuration(name: "subscriber", address: pair.addresses[1]),
                    air: pair.airs[1],
                    seed: trialSeed ^ 0x5355_4253
                )
                device.delegate = watch
                try device.start()
                watch.subscribedAt = pair.sharedNow(1)
                device.perform(
                    .subscribe(
                        SubscribeConfiguration(
                            serviceName: publishConfiguration.serviceName,
                            mode: .active,
                            matchingFilter: publishConfiguration.transmitMatchingFilter,
                            seeksDataPaths: false
                        )
                    )
                )
                return device
            }
            _ = watch.matched.wait(timeout: .now() + trialTimeoutSeconds)
            pair.on(0) { publisher.stop() }
            let outcome = pair.on(1) {
                subscriber.stop()
                return (subscribed: watch.subscribedAt, matched: watch.matchedAt, solicited: watch.solicited)
            }
            if let matchedAt = outcome.matched, matchedAt >= outcome.subscribed {
                result.latencies.append(Double(matchedAt - outcome.subscribed) / 1e9)
                if outcome.solicited { result.solicited += 1 }
            }
            usleep(gapMicroseconds)
        }
        return result
    }

    /// Nearest-rank percentile (as performance.md's report computes its percentiles).
    func percentile(_ p: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var median: Double? { percentile(50) }

    func line(label: String, baseline: RadioDiscoveryLatency?) -> String {
        let milliseconds = { (value: Double?) in value.map { BenchSupport.fixed($0 * 1000, 1) + " ms" } ?? "-" }
        var line =
            "  \(label.padding(toLength: 11, withPad: " ", startingAt: 0))"
            + "median \(milliseconds(median)), p90 \(milliseconds(percentile(90))), "
            + "max \(milliseconds(latencies.max())) (\(latencies.count)/\(trials) matched, \(solicited) solicited)"
        if let baseline, let median, let base = baseline.median {
            line += " = \(BenchSupport.fixed(RadioCommand.ratio(median, base), 3)) x socket (median)"
        } else if baseline == nil {
            line += "  [baseline]"
        }
        return line
    }

    var json: JSONValue {
        let value = { (seconds: Double?) in seconds.map { BenchSupport.json($0 * 1000, 3) } ?? .null }
        return .object([
            ("trials", .unsigned(UInt64(trials))),
            ("matched", .unsigned(UInt64(latencies.count))),
            ("solicited", .unsigned(UInt64(solicited))),
            ("medianMs", value(median)),
            ("p90Ms", value(percentile(90))),
            ("maxMs", value(latencies.max())),
        ])
    }
}

/// The subscriber's delegate in one trial: when the first matching discovery result came.
/// Runs on B's scheduler; ``matched`` is signalled from there.
private final class MatchWatch: NANDeviceDelegate {
    let matched = DispatchSemaphore(value: 0)
    var subscribedAt: UInt64 = 0
    var matchedAt: UInt64?
    var solicited = false
    /// The shared monotonic clock, read on B's scheduler.
    let clock: () -> UInt64

    init(clock: @escaping () -> UInt64) { self.clock = clock }

    func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
        guard matchedAt == nil, case .discovery(.discoveryResult(let result)) = notification, result.matched else {
            return
        }
        matchedAt = clock()
        solicited = result.solicited
        matched.signal()
    }
}

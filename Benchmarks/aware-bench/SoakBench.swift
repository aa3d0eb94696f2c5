import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// The world of `soak`: one emulated accessory and the runner's phone on one simulated air,
/// in virtual time, and one reconnect cycle. The phone pairs once with the PIN; every cycle
/// it then reconnects with its cached keys (NIRA resolution and pairing verification), opens
/// a paired data path, exchanges traffic, terminates the path and goes away (``Departure``):
/// it drops the link (stays on the air and forgets its NM-TK, as when the accessory vanished),
/// or leaves the air (it stops; next cycle a new phone, with the same pairing store but a new
/// NMI as an iPhone's Wi-Fi restart gives it, joins).
final class SoakBench {
    /// Where a cycle failed and why; the cycle number and the seed rerun it.
    struct Failure: Error {
        var cycle: Int
        var step: String
        var detail: String
    }

    let air: SimulatedAir
    let accessory: Accessory
    let service: ServiceProfile
    let servicePort: UInt16
    let seed: UInt64
    let trafficSeconds: Double
    let departure: Departure
    /// The phone's pairing store, shared by every phone that joins: the keys survive the
    /// phone leaving the air, as an iPhone's keychain does. One `StateDirectory` (and lock).
    let store: PairingStore
    private let storePath: URL
    private(set) var phone: Phone?
    /// How many phones have joined the air so far (each gets its own NMI and seed).
    private(set) var joins = 0
    /// Phones that left the air: weak, so a phone something still holds on to shows up here.
    private var departed: [Weak] = []
    private var displayed: [PINDisplay] = []
    /// Ping payloads sent and pongs matched, over the whole run.
    private(set) var pingsAnswered = 0
    private(set) var telemetryDatagrams = 0

    private struct Weak {
        weak var phone: Phone?
    }

    init(profile: AccessoryProfile, seed: UInt64, trafficSeconds: Double, departure: Departure) throws {
        guard let service = profile.services.first(where: { $0.datapath != nil }), let port = service.datapath?.port
        else {
            throw BenchSupport.failure(3, "soak: the profile has no service with a data path")
        }
        guard profile.pairing != nil else { throw BenchSupport.failure(3, "soak: the profile has no pairing") }
        self.service = service
        servicePort = UInt16(clamping: port)
        self.seed = seed
        self.trafficSeconds = trafficSeconds
        self.departure = departure
        storePath = FileManager.default.temporaryDirectory
            .appendingPathComponent("aware-bench-soak-\(getpid())-\(seed)")
        do {
            store = try PairingStore(path: storePath.path)
        } catch {
            throw BenchSupport.failure(3, "soak: cannot open the phone's pairing store \(storePath.path): \(error)")
        }
        air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        accessory = Accessory(profile: profile, air: air, options: AccessoryOptions(seed: seed, pinSource: .seeded))
        accessory.pinDisplayHandler = { [unowned self] in displayed.append($0) }
        do {
            try accessory.start()
        } catch {
            throw BenchSupport.failure(1, "soak: the accessory cannot join the simulated air: \(error)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: storePath) }

    var scheduler: VirtualScheduler { air.virtualScheduler }
    var now: Instant { scheduler.now }

    /// Phones that left the air and are still alive: each one is a leak.
    var departedAlive: Int { departed.count(where: { $0.phone != nil }) }

    /// Runs until `condition` holds or `timeout` of virtual time passed; whether it holds.
    func run(_ timeout: Interval, until condition: () -> Bool) -> Bool {
        let deadline = scheduler.now + timeout
        while !condition() {
            guard let next = scheduler.nextEventTime, next <= deadline else { return condition() }
            scheduler.run(until: next)
        }
        return true
    }

    /// The first pairing, with the PIN the accessory displays: cycle 0's set-up.
    func pairWithPIN() throws(Failure) {
        let phone = try join(cycle: 0)
        let result = try discover(phone, cycle: 0)
        phone.pairing.pair(with: result, pin: .now { [unowned self] in displayed.last?.pin.digits })
        _ = run(.seconds(30)) { phone.pairing.outcome != nil }
        scheduler.run(for: .milliseconds(100))
        guard let outcome = phone.pairing.outcome, outcome.result == .paired, outcome.keysCached else {
            let detail = phone.pairing.outcome.map { "\($0.result.rawValue): \($0.detail)" } ?? "no outcome in 30 s"
            throw Failure(cycle: 0, step: "pairing with the PIN", detail: detail)
        }
    }

    /// One reconnect cycle, numbered from 1; returns when the phone went away (the caller
    /// then waits out the rest of the cycle).
    func cycle(_ number: Int) throws(Failure) {
        let phone: Phone
        if let current = self.phone { phone = current } else { phone = try join(cycle: number) }
        guard let result = phone.matchedResults(serviceName: service.name).last else {
            throw Failure(cycle: number, step: "discovery", detail: "the phone has no match for \(service.name)")
        }
        phone.pairing.dropLink(with: result.publisherAddress)
        phone.pairing.reconnect(with: result)
        _ = run(.seconds(30)) { phone.pairing.outcome != nil }
        guard let outcome = phone.pairing.outcome, outcome.result == .reconnected else {
            let detail = phone.pairing.outcome.map { "\($0.result.rawValue): \($0.detail)" } ?? "no outcome in 30 s"
            throw Failure(cycle: number, step: "reconnect (pairing verification)", detail: detail)
        }
        let id = phone.dataPaths.open(
            PhoneDataPathRequest(
                accessory: result.publisherAddress,
                publishID: result.publishInstanceID,
                serviceName: result.serviceName,
                mode: .bulk,
                serviceClass: .bestEffort,
                security: .paired,
                servicePort: servicePort
            )
        )
        _ = run(.seconds(10)) { phone.dataPaths.outcomes[id] != .pending }
        guard let link = phone.dataPaths.outcomes[id]?.link, let session = phone.dataPaths.sessions[link.id] else {
            let detail = phone.dataPaths.outcomes[id].map { "\($0)" } ?? "no outcome in 10 s"
            throw Failure(cycle: number, step: "data path set-up", detail: detail)
        }
        try exchangeTraffic(session, cycle: number)
        phone.dataPaths.terminate(link.id)
        _ = run(.seconds(2)) { accessory.dataPaths.isEmpty }
        guard accessory.dataPaths.isEmpty else {
            throw Failure(
                cycle: number,
                step: "data path termination",
                detail: "the accessory still has \(accessory.dataPaths.count) data path(s) 2 s after the Termination"
            )
        }
        switch departure {
        case .dropLink: break
        case .leaveAir: leave()
        case .alternate: if number % 2 == 1 { leave() }
        }
    }

    /// A ping each second for `trafficSeconds`, each answered by its pong, while the drone's
    /// telemetry flows the other way.
    private func exchangeTraffic(_ session: PhoneDataSession, cycle number: Int) throws(Failure) {
        let pings = max(1, Int(trafficSeconds.rounded(.up)))
        let start = now
        for index in 0..<pings {
            let payload = Array("soak \(number).\(index)".utf8)
            session.send(.ping(payload))
            guard run(.seconds(2), until: { session.controlMessages.contains(.pong(payload)) }) else {
                throw Failure(cycle: number, step: "traffic", detail: "no pong for ping \(index) within 2 s")
            }
            pingsAnswered += 1
            scheduler.run(until: max(now, start + .seconds(trafficSeconds * Double(index + 1) / Double(pings))))
        }
        let telemetry = session.arrivals[1]?.count ?? 0
        guard telemetry > 0 else {
            throw Failure(cycle: number, step: "traffic", detail: "no telemetry arrived in \(trafficSeconds) s")
        }
        telemetryDatagrams += telemetry
    }

    /// A new phone joins the air: its own NMI and seed, the shared pairing store.
    private func join(cycle number: Int) throws(Failure) -> Phone {
        let index = joins
        joins += 1
        let phone = Phone(
            air: air,
            seed: seed &+ 9 &+ UInt64(index) &* 0x9E37_79B9,
            pairingStore: store
        )
        do {
            try phone.start()
        } catch {
            throw Failure(cycle: number, step: "join", detail: "phone \(index) cannot join the simulated air: \(error)")
        }
        self.phone = phone
        _ = try discover(phone, cycle: number)
        return phone
    }

    private func discover(_ phone: Phone, cycle number: Int) throws(Failure) -> DiscoveryResult {
        if phone.subscribeInstances[service.name] == nil {
            phone.subscribe(SubscribeConfiguration(serviceName: service.name, mode: .active))
        }
        let address = accessory.address
        let name = service.name
        guard
            run(
                .seconds(10),
                until: { phone.matchedResults(serviceName: name).contains { $0.publisherAddress == address } }
            ),
            let result = phone.matchedResults(serviceName: name).last(where: { $0.publisherAddress == address })
        else {
            throw Failure(cycle: number, step: "discovery", detail: "the phone did not discover \(name) within 10 s")
        }
        return result
    }

    /// The phone leaves the air (stops) and this bench lets go of it.
    func leave() {
        guard let phone else { return }
        phone.stop()
        departed.append(Weak(phone: phone))
        departed.removeAll { $0.phone == nil }
        self.phone = nil
    }
}

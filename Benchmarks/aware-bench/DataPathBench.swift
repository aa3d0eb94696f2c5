import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// One emulated accessory and any number of the runner's phones on one simulated air, driven
/// in virtual time: discovery, pairing with the displayed PIN, a paired data path and the app
/// session on it. What the data-path benchmark's parts share.
final class DataPathBench {
    let air: SimulatedAir
    let accessory: Accessory
    let profile: AccessoryProfile
    let seed: UInt64
    private(set) var phones: [Phone] = []
    private var displayed: [PINDisplay] = []

    init(profile: AccessoryProfile, seed: UInt64) throws {
        self.profile = profile
        self.seed = seed
        air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        accessory = Accessory(
            profile: profile,
            air: air,
            options: AccessoryOptions(seed: seed, pinSource: .seeded)
        )
        accessory.pinDisplayHandler = { [unowned self] in displayed.append($0) }
        do {
            try accessory.start()
        } catch {
            throw BenchSupport.failure(1, "datapath: the accessory cannot join the simulated air: \(error)")
        }
    }

    var scheduler: VirtualScheduler { air.virtualScheduler }
    var now: Instant { scheduler.now }

    /// A phone 2 m from the accessory (the end-to-end tests' distance); the `index`-th sits at
    /// its own angle on that circle, so every phone gets the same link rate.
    @discardableResult
    func addPhone() throws -> Phone {
        let index = phones.count
        let angle = Double(index) * 2 * Double.pi / 16
        let phone = Phone(
            air: air,
            seed: seed &+ 9 &+ UInt64(index) &* 0x9E37_79B9,
            position: .init(x: 2 * cos(angle), y: 2 * sin(angle))
        )
        do {
            try phone.start()
        } catch {
            throw BenchSupport.failure(1, "datapath: phone \(index) cannot join the simulated air: \(error)")
        }
        phones.append(phone)
        return phone
    }

    func run(for interval: Interval) { scheduler.run(until: scheduler.now + interval) }

    /// Runs until `condition` holds or `timeout` of virtual time passed; whether it holds.
    func run(_ timeout: Interval, until condition: () -> Bool) -> Bool {
        let deadline = scheduler.now + timeout
        while !condition() {
            guard let next = scheduler.nextEventTime, next <= deadline else { return condition() }
            scheduler.run(until: next)
        }
        return true
    }

    /// Subscribes actively to `service` and returns the accessory's match.
    func discover(_ phone: Phone, service: String) throws -> DiscoveryResult {
        if phone.subscribeInstances[service] == nil {
            phone.subscribe(SubscribeConfiguration(serviceName: service, mode: .active))
        }
        let address = accessory.address
        guard
            run(
                .seconds(10),
                until: { phone.matchedResults(serviceName: service).contains { $0.publisherAddress == address } }
            ),
            let result = phone.matchedResults(serviceName: service).last(where: { $0.publisherAddress == address })
        else {
            throw BenchSupport.failure(1, "datapath: the phone did not discover \(service) within 10 s")
        }
        return result
    }

    /// Pairs with the PIN the accessory displays.
    func pair(_ phone: Phone, _ result: DiscoveryResult) throws {
        phone.pairing.pair(with: result, pin: .now { [unowned self] in displayed.last?.pin.digits })
        _ = run(.seconds(30)) { phone.pairing.outcome != nil }
        // The accessory hears the last frame a moment after the phone decided.
        run(for: .milliseconds(100))
        guard let outcome = phone.pairing.outcome, outcome.result == .paired else {
            throw BenchSupport.failure(
                1,
                "datapath: pairing failed: \(phone.pairing.outcome.map { "\($0)" } ?? "no outcome in 30 s")"
            )
        }
    }

    /// Opens a paired data path in `mode` and returns it with the phone's app session on it.
    func open(
        _ phone: Phone,
        _ result: DiscoveryResult,
        mode: PerformanceMode,
        serviceClass: ServiceClass = .bestEffort,
        servicePort: UInt16,
        filePort: UInt16? = nil
    ) throws -> (link: NDPLink, session: PhoneDataSession) {
        let id = phone.dataPaths.open(
            PhoneDataPathRequest(
                accessory: result.publisherAddress,
                publishID: result.publishInstanceID,
                serviceName: result.serviceName,
                mode: mode,
                serviceClass: serviceClass,
                security: .paired,
                servicePort: servicePort,
                filePort: filePort
            )
        )
        _ = run(.seconds(10)) { phone.dataPaths.outcomes[id] != .pending }
        guard let link = phone.dataPaths.outcomes[id]?.link, let session = phone.dataPaths.sessions[link.id] else {
            let outcome = phone.dataPaths.outcomes[id].map { "\($0)" } ?? "no outcome"
            throw BenchSupport.failure(1, "datapath: the \(mode.rawValue) data path did not come up: \(outcome)")
        }
        return (link, session)
    }

    /// Asks the accessory for a datagram stream and returns the flow ID it answers with.
    func requestStream(
        _ session: PhoneDataSession,
        _ request: ControlMessage.StreamRequest
    ) throws -> UInt16 {
        let before = session.controlMessages.count
        session.send(.startStream(request))
        var flowID: UInt16?
        _ = run(.seconds(5)) {
            for case .streamStarted(let id) in session.controlMessages.dropFirst(before) { flowID = id }
            return flowID != nil
        }
        guard let flowID else {
            let answers = session.controlMessages.dropFirst(before).map { "\($0)" }.joined(separator: ", ")
            throw BenchSupport.failure(1, "datapath: the accessory did not start the stream: [\(answers)]")
        }
        return flowID
    }

    /// What the accessory's radio counted on its end of `link` (the phone's NMI names it there).
    func accessoryStatistics(_ link: NDPLink, phone: Phone) -> DataLinkStatistics? {
        accessory.device.dataLinkStatistics(DataLinkID(peerNMI: phone.address, ndpID: link.ndpID))
    }

    /// `profile` with a few fields changed, as a copy: Profiles/ stays as it is.
    static func variant(_ profile: AccessoryProfile, _ change: (inout AccessoryProfile) -> Void) -> AccessoryProfile {
        var copy = profile
        change(&copy)
        return copy
    }
}

extension ServiceClass {
    /// The service class whose traffic goes out in `category` (the inverse of ``accessCategory``).
    static func carried(in category: AccessCategory) -> ServiceClass {
        switch category {
        case .background: .background
        case .bestEffort: .bestEffort
        case .video: .interactiveVideo
        case .voice: .interactiveVoice
        }
    }
}

/// This process's resident set (VmRSS of /proc/self/status), in octets; nil where there is no
/// procfs.
enum ResidentMemory {
    static func octets() -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let value = UInt64(fields[1]), fields[2] == "kB" else { return nil }
            return value * 1024
        }
        return nil
    }
}

import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// One test's stage: a session with the accessory, the phone on the same air, and a capture
/// of everything. Tests read like the scenario they check; the harness keeps the evidence.
final class Scenario {
    let context: TestContext
    let session: any TargetSession
    let tap = CaptureTap(format: .pcap)
    /// How the runner reaches beyond the air: the PIN, the power switch (``AccessoryTarget/operatorAccess``).
    let operatorAccess: OperatorAccess
    /// The PINs this scenario's phones typed.
    let pinLog = PINLog()
    private var phoneStorage: Phone?
    /// The test's fault steps at work on the air, when the run has a fault plan for it.
    private var faults: FaultInjector?
    /// The runner identities this test's phones hold, on a target whose accessory outlives the
    /// test (``PhoneIdentityPool``); returned when the scenario finishes.
    private let identities: PhoneIdentityPool?
    private var leased: [PhoneIdentityPool.Identity] = []
    /// Every NMI the scenario's phone has used, oldest first (it draws a new one between
    /// connections under a phone profile that randomizes it, ``changePhoneAddress()``).
    private(set) var phoneAddresses: [MACAddress] = []
    /// The seed of the scenario's phone: its NMI and its draws.
    private var phoneSeed: UInt64 = 0
    /// The person who reads the PIN off the accessory and types it: how long each entry takes.
    var person: SeededGenerator

    /// Opens a session for `request` and starts a phone `request.phoneDistance` metres from
    /// the accessory.
    init(
        _ context: TestContext,
        target: any AccessoryTarget,
        request: SessionRequest,
        phoneUnsynchronized: Bool? = nil
    ) throws {
        let distance = request.phoneDistance
        self.context = context
        person = context.makeGenerator("person")
        operatorAccess = target.operatorAccess
        identities = target.phoneIdentities
        let identity = identities?.lease()
        leased = identity.map { [$0] } ?? []
        var request = request
        if identity != nil { request.phoneAddress = identities?.address(seed: context.seed) }
        do {
            session = try target.openSession(request)
        } catch let error as ProfileVariantError {
            if let identity { identities?.release(identity) }
            throw EnvironmentFailure("the profile variant does not apply: \(error)")
        } catch {
            if let identity { identities?.release(identity) }
            throw EnvironmentFailure("\(target.name): \(error)")
        }
        if let identity {
            context.log(
                "phone_identity",
                [
                    "index": .integer(Int64(identity.index)),
                    "runSalt": .string(String(identities?.salt ?? 0, radix: 16)),
                ]
            )
        }
        let unsynchronized = session.onlyUnsynchronized || (phoneUnsynchronized ?? request.unsynchronized)
        let radioAddress = session.requiredPhoneAddress
        var startFailure: AirError?
        var impairable = true
        session.perform { [self] in
            session.air.addTap(tap)
            if !context.faultSteps.isEmpty {
                impairable = installFaults(context.faultSteps)
            }
            phoneSeed = identities?.phoneSeed(context.seed) ?? context.seed
            let phone = Phone(
                air: session.air,
                seed: phoneSeed,
                position: .init(x: distance, y: 0),
                unsynchronized: unsynchronized,
                reportsRejectedPublishes: true,
                address: radioAddress ?? (identity == nil ? nil : identities?.address(seed: context.seed)),
                nik: identity?.nik,
                profile: context.phone
            )
            startFailure = attach(phone)
            faults?.reach(.start)
        }
        if !impairable {
            session.close()
            returnIdentities()
            throw EnvironmentFailure("\(target.name): this target's air cannot apply a fault plan")
        }
        if let startFailure {
            session.close()
            returnIdentities()
            throw EnvironmentFailure("the phone could not join the air: \(startFailure)")
        }
    }

    /// Makes `phone` the scenario's phone: its log goes to the test's, and it joins the air.
    /// On the scheduler.
    private func attach(_ phone: Phone) -> AirError? {
        phone.dataPaths.proposalShape = context.proposalShape
        let context = self.context
        let session = self.session
        let faults = self.faults
        phone.log = { event, fields in
            context.log(event, at: session.now, fields)
            faults?.observe(event, fields: fields)
        }
        phoneStorage = phone
        phoneAddresses.append(phone.address)
        do throws(AirError) {
            try phone.start()
            return nil
        } catch {
            return error
        }
    }

    /// The phone comes back under a new NMI, as a phone that randomizes its address does
    /// between connections (docs/phones.md): the old one ends its data paths and leaves the air,
    /// and a new device with the same NIK and the same pairings joins it. Tests then find the
    /// accessory again with the new phone (a discovery result belongs to the subscribe that
    /// made it). Returns false, changing nothing, where the air fixes the phone's address (a
    /// radio hears unicast frames only for its own).
    @discardableResult
    func changePhoneAddress() throws -> Bool {
        guard session.requiredPhoneAddress == nil else { return false }
        let old = phone
        closeDataPaths(of: [old])
        let turn = UInt64(phoneAddresses.count)
        let seed = phoneSeed ^ (0x4E4D_4931 &* turn)
        var address = identities?.address(seed: context.seed &+ turn) ?? Phone.drawnAddress(seed: seed)
        if phoneAddresses.contains(address) { address = Phone.drawnAddress(seed: seed &+ 1) }
        var failure: AirError?
        session.perform {
            old.stop()
            let phone = Phone(
                air: session.air,
                seed: seed,
                position: old.device.configuration.position,
                unsynchronized: old.device.configuration.synchronization == nil,
                reportsRejectedPublishes: true,
                address: address,
                nik: old.pairing.ownNIK,
                profile: old.profile
            )
            phone.pairing.carryOver(from: old.pairing)
            phone.pairing.options = old.pairing.options
            failure = attach(phone)
        }
        if let failure { throw EnvironmentFailure("the phone could not join the air under its new NMI: \(failure)") }
        context.log(
            "phone_nmi_changed",
            ["from": .string(old.address.description), "to": .string(phone.address.description)]
        )
        return true
    }

    /// Puts the fault steps on the air; false when the air cannot take them. On the scheduler.
    private func installFaults(_ steps: [FaultStep]) -> Bool {
        guard let air = session.air as? any ImpairableAir else { return false }
        let context = self.context
        let session = self.session
        let injector = FaultInjector(
            steps: steps,
            phoneStations: [Phone.stationName],
            now: { session.now },
            log: { event, fields in context.log(event, at: session.now, fields) }
        )
        air.impairer = injector
        faults = injector
        return true
    }

    /// Lets time pass until `condition` holds or `timeout` passes, carrying out the reboots
    /// the fault plan asks for as the test reaches their moment.
    private func run(until condition: @escaping () -> Bool, timeout: Interval) -> Bool {
        guard let faults else { return session.run(until: condition, timeout: timeout) }
        let deadline = session.now + timeout
        while true {
            let remaining = deadline - session.now
            let held = session.run(
                until: { condition() || faults.hasPendingReboot },
                timeout: remaining.nanoseconds > 0 ? remaining : .zero
            )
            var reboot: FaultStep?
            session.perform { reboot = faults.takePendingReboot() }
            guard let reboot else { return held }
            do {
                try restartAccessory(newAddress: nil)
            } catch {
                context.fail("fault plan \(reboot): the accessory could not be rebooted: \(error)")
            }
            guard deadline - session.now > .zero else {
                var holds = false
                session.perform { holds = condition() }
                return holds
            }
        }
    }

    var phone: Phone { phoneStorage! }

    /// How long the phone looks for an accessory before it gives up (its profile's window).
    var discoveryWindow: Interval { context.phone.discoveryWindow }

    /// Runs `work` with the phone on the air's scheduler.
    func withPhone(_ work: (Phone) -> Void) {
        session.perform { work(phone) }
    }

    /// Lets time pass until `condition` holds (true) or `timeout` passes (false).
    @discardableResult
    func wait(_ timeout: Interval, until condition: @escaping (Phone) -> Bool) -> Bool {
        let phone = self.phone
        let held = run(until: { condition(phone) }, timeout: timeout)
        if context.clock == .virtual { context.advanceVirtualTime(to: session.now) }
        return held
    }

    /// Lets `interval` pass.
    func pass(_ interval: Interval) {
        _ = run(until: { false }, timeout: interval)
        if context.clock == .virtual { context.advanceVirtualTime(to: session.now) }
    }

    /// Reads a value from the phone on the scheduler.
    func read<T>(_ body: (Phone) -> T) -> T {
        var value: T?
        session.perform { value = body(phone) }
        return value!
    }

    /// Every frame the capture holds, as the octets on the air (data frames too).
    var capturedFrames: [[UInt8]] {
        var records: [CaptureRecord] = []
        session.perform { records = tap.records }
        return records.map(\.frame)
    }

    /// Every frame the capture holds, decoded, with when it was seen.
    var frames: [(time: UInt64, frame: ManagementFrame)] {
        var records: [CaptureRecord] = []
        session.perform { records = tap.records }
        return records.compactMap { record in
            (try? IEEE80211Frame(bytes: record.frame).managementFrame).map { (record.timestamp, $0) }
        }
    }

    /// Publish SDFs the accessory sent (by transmitter address, when known).
    func publishes(
        from address: MACAddress?
    ) -> [(time: UInt64, frame: ManagementFrame, sda: ServiceDescriptorAttribute)] {
        frames.flatMap { entry -> [(time: UInt64, frame: ManagementFrame, sda: ServiceDescriptorAttribute)] in
            guard case .serviceDiscovery(let sdf) = entry.frame.body else { return [] }
            if let address, entry.frame.header.address2 != address { return [] }
            if address == nil, entry.frame.header.address2 == phone.address { return [] }
            return sdf.attributes.compactMap { attribute in
                guard case .serviceDescriptor(let sda) = attribute, sda.type == .publish else { return nil }
                return (entry.time, entry.frame, sda)
            }
        }
    }

    /// Solicited replies on the air: unicast publishes to the phone that answer its subscribe
    /// `instance`. Judged from the frames themselves, not from what the phone chose to report
    /// (it reports a publisher once per subscribe, however it was found).
    func solicitedReplies(to instance: UInt8, service: String) -> Int {
        let phoneAddress = phone.address
        let serviceID = ServiceID(serviceName: service)
        return publishes(from: nil).count {
            $0.frame.header.address1 == phoneAddress && $0.sda.requestorInstanceID == instance
                && $0.sda.serviceID == serviceID
        }
    }

    /// The NAN beacons a station sent, with their Cluster attribute.
    func beacons(from address: MACAddress) -> [(time: UInt64, cluster: ClusterAttribute)] {
        frames.compactMap { entry in
            guard entry.frame.header.address2 == address, case .nanBeacon(let beacon) = entry.frame.body else {
                return nil
            }
            for case .cluster(let cluster) in beacon.attributes { return (entry.time, cluster) }
            return nil
        }
    }

    /// The accessory's address: from the target, else from the first publish heard.
    var accessoryAddress: MACAddress? {
        session.accessoryAddress ?? read { $0.results.first?.publisherAddress }
    }

    /// Stops everything and hands the capture and the accessory's events to the evidence.
    /// Stops phones the test added: each first ends its data paths (``closeDataPaths(of:)``).
    func stop(_ phones: [Phone]) {
        closeDataPaths(of: phones)
        session.perform { for phone in phones { phone.stop() } }
    }

    /// The phones' apps close their connections: each data path ends with a Termination, and the
    /// phones stay (at most 2 s) until the frames are out. An accessory that outlives the test
    /// (socket, nl80211) would otherwise hold the data paths, and one that serves a single phone
    /// at a time would refuse the next test's (reason 2).
    func closeDataPaths(of phones: [Phone]) {
        var terminating = false
        session.perform {
            for phone in phones {
                terminating = terminating || phone.dataPaths.outcomes.values.contains { $0.link != nil }
                phone.dataPaths.terminateAll()
            }
        }
        if terminating { _ = wait(.seconds(2)) { _ in !phones.contains { $0.device.ownerFramesPending } } }
    }

    func finish() {
        closeDataPaths(of: [phone])
        var capture: [UInt8] = []
        session.perform {
            capture = tap.bytes
            phone.stop()
        }
        context.setCapture(pcap: capture)
        if let faults {
            var injections = 0
            session.perform {
                injections = faults.injections
                (session.air as? any ImpairableAir)?.impairer = nil
            }
            context.log(
                "fault_plan_summary",
                ["steps": .integer(Int64(faults.steps.count)), "injected": .integer(Int64(injections))]
            )
        }
        let events = session.accessoryEvents
        if !events.isEmpty {
            context.attach("accessory-events.jsonl", contents: Array(events.joined(separator: "\n").utf8))
        }
        session.close()
        returnIdentities()
    }

    /// Gives the phones' identities back to the pool (once; a scenario a test abandoned gives
    /// them back when it goes away).
    private func returnIdentities() {
        for identity in leased { identities?.release(identity) }
        leased = []
    }

    deinit { returnIdentities() }
}

extension Scenario {
    /// Starts another phone on the same air (a second device pairing with the accessory). The
    /// caller stops it. `address` is its NMI where every test meets a fresh accessory; where the
    /// accessory outlives the test, the phone is one of the runner's identities with this run's
    /// NMI for `seed` instead (``PhoneIdentityPool``).
    func addPhone(seed: UInt64, address fixedAddress: MACAddress) throws -> Phone {
        if let radio = session.requiredPhoneAddress {
            try context.skip(
                "a second phone needs an address of its own, and this radio hears unicast frames only for its own "
                    + "(\(radio)): the test needs a second radio on the phone's side"
            )
        }
        var failure: AirError?
        var phone: Phone?
        let identity = identities?.lease()
        if let identity { leased.append(identity) }
        let address = identity == nil ? fixedAddress : identities?.address(seed: seed) ?? fixedAddress
        session.perform {
            let added = Phone(
                air: session.air,
                seed: identities?.phoneSeed(seed) ?? seed,
                position: .init(x: 2, y: 1),
                reportsRejectedPublishes: true,
                address: address,
                nik: identity?.nik,
                profile: context.phone
            )
            let context = self.context
            let session = self.session
            added.log = { event, fields in
                context.log(
                    event,
                    at: session.now,
                    fields.merging(["phone": .string(address.description)]) { a, _ in a }
                )
            }
            do throws(AirError) {
                try added.start()
                phone = added
            } catch {
                failure = error
            }
        }
        if let failure { throw EnvironmentFailure("the second phone could not join the air: \(failure)") }
        return try context.require(phone, "the second phone started")
    }
}

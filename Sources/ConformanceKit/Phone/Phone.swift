import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// The runner's phone: a NAN device that subscribes the way an iPhone does and remembers
/// everything it saw, for tests to judge. Used on its air's scheduler.
public final class Phone: NANDeviceDelegate {
    /// The name the phone's station attaches to an air with (fault plans tell its frames by it).
    public static let stationName = "phone"

    public let device: NANDevice
    public private(set) var results: [DiscoveryResult] = []
    public private(set) var terminations: [(instanceID: UInt8, reason: TerminationReason, time: Instant)] = []
    public private(set) var subscribeInstances: [String: UInt8] = [:]
    /// Subscribe instance IDs in the order the subscribes started.
    public private(set) var startedSubscribes: [UInt8] = []
    public private(set) var rejectedCommands: [DiscoveryCommandError] = []
    /// Every Follow-up the phone received, oldest first (the reverse role judges the accessory's
    /// bootstrapping request by it).
    public private(set) var followUpsReceived: [FollowUpMessage] = []
    /// The phone's own publishes (the reverse role), by service name.
    public private(set) var publishInstances: [String: UInt8] = [:]
    /// Receives a line for the test's event log for everything the phone sees.
    public var log: ((String, [String: JSONValue]) -> Void)? {
        didSet {
            pairing.log = log
            dataPaths.log = log
        }
    }
    /// Pairing and reconnecting, as an iPhone does them.
    public private(set) var pairing: PhonePairing!
    /// Application messages accessories sent in follow-ups (no data path), in order.
    public private(set) var appMessages: [(from: MACAddress, message: AppMessage)] = []
    private var nextAppMessageSequence: UInt32 = 0
    /// Data paths to paired accessories, and the app traffic on them.
    public private(set) var dataPaths: PhoneDataPaths!
    /// Which phone this one behaves as where phones differ (`--phone`, docs/phones.md).
    public let profile: PhoneProfile

    /// A phone at `position` on `air`; synchronized discovery unless `unsynchronized`. Its NMI
    /// is `address` or drawn from `seed`; its NIK is `nik` (an identity of the runner's pool,
    /// ``PhoneIdentityPool``), the one in `pairingStore`, or drawn from `seed`.
    public init(
        air: any Air,
        seed: UInt64,
        position: StationConfiguration.Position = .init(x: 2, y: 0),
        unsynchronized: Bool = false,
        reportsRejectedPublishes: Bool = false,
        pairingStore: PairingStore? = nil,
        address: MACAddress? = nil,
        nik: [UInt8]? = nil,
        profile: PhoneProfile = .reference
    ) {
        self.profile = profile
        let address = address ?? Self.drawnAddress(seed: seed)
        device = NANDevice(
            configuration: NANDevice.Configuration(
                name: Phone.stationName,
                address: address,
                position: position,
                // A higher master preference than accessories' default, as a phone that is
                // already in (or forms) the cluster the accessory joins.
                synchronization: unsynchronized
                    ? nil : SynchronizationConfiguration(address: address, masterPreference: 128),
                reportsRejectedPublishes: reportsRejectedPublishes
            ),
            air: air,
            seed: seed
        )
        pairing = PhonePairing(device: device, store: pairingStore, seed: seed, nik: nik)
        pairing.options.nikFollowUp = profile.nikFollowUp
        device.delegate = self
        dataPaths = PhoneDataPaths(device: device, pairing: pairing, seed: seed)
        // The phone's SDFs say what it can do for a data path, as an iPhone's and hostap's do
        // (nan-wire-reference.md 4.1): every slot on the data channel.
        device.advertiseDataPaths(offering: NDPSchedule(mode: .realtime))
    }

    public var address: MACAddress { device.configuration.address }

    /// The NMI a phone draws from `seed`: locally administered, individual, 02:b0:xx:xx:xx:xx.
    public static func drawnAddress(seed: UInt64) -> MACAddress {
        var generator = SeededGenerator(seed: seed ^ 0x5048_4F4E_4521)
        let value = generator.next()
        return MACAddress(
            0x02,
            0xB0,
            UInt8(truncatingIfNeeded: value >> 24),
            UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value)
        )
    }

    public func start() throws(AirError) { try device.start() }
    /// Closes its data paths (with Terminations) and leaves the air.
    public func stop() {
        dataPaths.terminateAll()
        device.stop()
    }

    public func subscribe(_ configuration: SubscribeConfiguration) {
        device.perform(.subscribe(configuration))
    }

    /// The reverse role: the phone's app publishes `service` for pairing, as DevicePairingView
    /// does (apple-peer-model.md 3), and the accessory subscribes. The phone answers pairing
    /// (PIN display, ``PhonePairing/answerPairing()``), advertises its NIRA, and accepts data
    /// paths from accessories it paired with, as their responder (``PhoneDataPaths/answerDataPaths(publishID:serviceName:)``).
    /// The TXT record is the one an iPhone published in the one public report that shows it
    /// (esp-idf #16743: vendor "Apple Inc.", model and pairing name "iPhone"); whatever a phone
    /// puts there, an accessory in this role must not depend on it.
    public func publishForPairing(service: String, instanceID: UInt8 = 1) {
        switch profile.pairingAsPublisher {
        case .showsPIN(let digits): pairing.answerPairing(pinDigits: digits)
        }
        let txt = DNSSDTXTRecord([
            (key: "vendorName", value: "Apple Inc."), (key: "modelName", value: "iPhone"),
            (key: "pairingName", value: "iPhone"),
        ])
        var configuration = PublishConfiguration(
            serviceName: service,
            solicitation: .both,
            serviceInfo: ServiceSpecificInfo(bonjour: txt),
            pairing: PairingAdvertisement(
                pairingSetupEnabled: true,
                npkNIKCachingEnabled: pairing.options.cachesKeys,
                bootstrappingMethods: .pinCodeDisplay,
                identityResolution: pairing.identityResolution
            ),
            offersDataPaths: true,
            dataPathCipherSuites: [NANSecurityCipherSuite.ncsPKPASN128.csid],
            instanceID: instanceID
        )
        configuration.extensionControl.insert(.dataPathRequired)
        configuration.extensionControl.insert(.securityRequired)
        dataPaths.answerDataPaths(publishID: instanceID, serviceName: service)
        device.perform(.publish(configuration))
    }

    /// Sends a small application message (a token exchange, say) to the accessory of `result` in a
    /// follow-up, without a data path. Payloads longer than ``AppMessage/maximumFollowUpPayload``
    /// (231 octets) do not fit one follow-up and are refused here, before anything is sent.
    public func sendAppMessage(_ payload: [UInt8], to result: DiscoveryResult) throws(AppMessageError) {
        let message = AppMessage(
            flowID: 0xF0,
            sequence: nextAppMessageSequence,
            sentAt: device.scheduler.sharedTimestamp(of: device.now),
            body: .datagram(payload)
        )
        let followUp = try FollowUpAppMessage(message)
        nextAppMessageSequence &+= 1
        guard let instance = subscribeInstances[result.serviceName] else { return }
        device.perform(
            .transmitFollowUp(
                FollowUpRequest(
                    localInstanceID: instance,
                    peerAddress: result.publisherAddress,
                    peerInstanceID: result.publishInstanceID,
                    serviceInfo: followUp.serviceInfo
                )
            )
        )
    }

    /// Results that matched (the ones an app would see), for `serviceName` if given.
    public func matchedResults(serviceName: String? = nil) -> [DiscoveryResult] {
        results.filter { $0.matched && (serviceName == nil || $0.serviceName == serviceName) }
    }

    /// What an AccessorySetupKit picker with `descriptor` would offer.
    public func offered(with descriptor: DiscoveryDescriptor) -> [OfferedAccessory] {
        var seen: Set<MACAddress> = []
        var offered: [OfferedAccessory] = []
        for result in matchedResults() {
            guard case .success(let accessory) = descriptor.evaluate(result, reading: profile.longTXTValues),
                seen.insert(accessory.address).inserted
            else { continue }
            offered.append(accessory)
        }
        return offered
    }

    /// Records and logs what its device reports (the phone is its device's delegate).
    public func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
        guard case .discovery(let event) = notification else {
            if case .synchronization(let sync) = notification { logSynchronization(sync) }
            return
        }
        switch event {
        case .discoveryResult(let result):
            results.append(result)
            log?(
                "discovery_result",
                [
                    "service": .string(result.serviceName), "publisher": .string(result.publisherAddress.description),
                    "instanceID": .unsigned(UInt64(result.publishInstanceID)), "matched": .bool(result.matched),
                    "outcome": .string("\(result.outcome)"), "rssi": .integer(Int64(result.rssiDBm)),
                    "solicited": .bool(result.solicited),
                ]
            )
        case .publishStarted(let instance, let name):
            publishInstances[name] = instance
            log?("publish_started", ["service": .string(name), "instanceID": .unsigned(UInt64(instance))])
        case .subscribeStarted(let instance, let name):
            subscribeInstances[name] = instance
            startedSubscribes.append(instance)
            log?("subscribe_started", ["service": .string(name), "instanceID": .unsigned(UInt64(instance))])
        case .terminated(let instance, _, let reason):
            terminations.append((instance, reason, device.now))
            log?("terminated", ["instanceID": .unsigned(UInt64(instance)), "reason": .string(reason.name)])
        case .followUpReceived(let message):
            followUpsReceived.append(message)
            if let info = message.serviceSpecificInfo, let app = try? FollowUpAppMessage(serviceInfo: info) {
                appMessages.append((message.peerAddress, app.message))
                log?(
                    "app_message_received",
                    [
                        "from": .string(message.peerAddress.description),
                        "octets": .integer(Int64(app.message.body.payloadBytes.count)),
                    ]
                )
            }
        case .commandRejected(let error):
            rejectedCommands.append(error)
            log?("command_rejected", ["error": .string("\(error)")])
        default:
            break
        }
    }

    private func logSynchronization(_ notification: SynchronizationNotification) {
        switch notification {
        case .clusterJoined(let status): log?("cluster_joined", ["clusterID": .string(status.clusterID.description)])
        case .clusterStarted(let status): log?("cluster_started", ["clusterID": .string(status.clusterID.description)])
        case .clusterTimeAdjusted(_, let moved): log?("cluster_time_adjusted", ["byMicroseconds": .integer(moved)])
        default: break
        }
    }
}

/// The runner's phones as an accessory that outlives a test sees them: a few devices, each with
/// its own NAN Identity Key, that come back test after test.
///
/// An accessory the runner does not start (socket air, a real radio) keeps every phone that
/// ever paired with it, up to its `maxPairedDevices` (8 for the shipped drone). If each test's
/// phone were a new device, the catalogue's pairing tests alone would fill that store and the
/// accessory would rightly refuse the rest. A real iPhone is one device with one NIK, which it
/// keeps across connections (nan-wire-reference.md 3.6, 3.7; an accessory finds a peer whose
/// NMI changed through its NIK, 2.17). So is the runner's phone: each
/// test still gets an NMI of its own (from its seed), but its NIK comes from this pool, and an
/// accessory that stores pairings by NIK (as `accessory-emu` does, and as the NIK exchange is
/// meant for) replaces the phone's earlier pairing instead of adding one. Tests that run at
/// the same time hold different identities, so one test's pairing never replaces the record
/// another test is about to verify.
///
/// The identities are fixed (derived from a constant, not the run's seed), so runs with other
/// seeds against the same accessory reuse them too. The NMIs are not: an accessory keeps the
/// pairwise key (NM-TK) of every NMI that paired with it and rightly drops unprotected frames
/// from it, so a second run whose phones came back under the NMIs of the first (same seeds)
/// could not even bootstrap. Nor its random draws: an accessory may remember what a phone sent
/// (`accessory-emu` rejects a PASN frame 3 it has seen before as a replay), and a second run
/// with the same seeds would send the first run's SAE commits again. Each run therefore draws
/// a salt that its phones' seeds (and so their NMIs, nonces and keys) are mixed with, as an
/// iPhone draws afresh; on these targets a seed fixes each test's own choices but not its
/// phone's draws (the accessory's state differs from run to run anyway).
public final class PhoneIdentityPool: @unchecked Sendable {
    /// One of the runner's phones: the index says which, the NIK is what the accessory keeps.
    public struct Identity: Hashable, Sendable {
        public var index: Int
        public var nik: [UInt8]
    }

    private let lock = NSLock()
    private var leased: Set<Int> = []
    /// This run's: mixed into every NMI its phones use.
    public let salt: UInt64

    public init(salt: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.salt = salt
    }

    /// The seed a phone of the test with `seed` draws from in this run.
    public func phoneSeed(_ seed: UInt64) -> UInt64 { seed ^ salt }

    /// The NMI of the phone of the test with `seed` in this run: locally administered, drawn
    /// from the seed and the run's salt.
    public func address(seed: UInt64) -> MACAddress { Phone.drawnAddress(seed: phoneSeed(seed)) }

    /// The lowest identity no running test holds. Return it with ``release(_:)``.
    public func lease() -> Identity {
        lock.lock()
        defer { lock.unlock() }
        var index = 0
        while leased.contains(index) { index += 1 }
        leased.insert(index)
        return Self.identity(index)
    }

    public func release(_ identity: Identity) {
        lock.lock()
        defer { lock.unlock() }
        leased.remove(identity.index)
    }

    /// How many identities are held now (for tests of the pool).
    public var leasedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return leased.count
    }

    /// Identity `index`: 16 octets drawn from the runner's seeded generator under a constant
    /// seed of its own. Fixed and distinct, and they look like the random keys a phone draws.
    public static func identity(_ index: Int) -> Identity {
        var generator = SeededGenerator(seed: 0x4157_4250_4E49_4B00 ^ UInt64(truncatingIfNeeded: index))
        return Identity(index: index, nik: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

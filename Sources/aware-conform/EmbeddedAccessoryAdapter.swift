import AccessoryKit
import AwareCore
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// The embedded target's accessory: AccessoryKit's accessory behind ConformanceKit's
/// protocol. This file is the only place the runner and the emulator meet, as
/// docs/reference/architecture.md asks (ConformanceKit never imports AccessoryKit).
final class EmbeddedAccessoryAdapter: EmbeddedAccessory {
    /// The accessory across the reboots a test asks for (AccessoryKit's, as the emulator's).
    let firmware: AccessoryFirmware
    /// A private state directory, so that a simulated reboot keeps the pairings as
    /// `--state-dir` does; removed with the adapter.
    private let statePath: String?
    var eventHandler: ((String) -> Void)? {
        didSet {
            let events = eventHandler
            firmware.eventHandler = { event in events?(event.json.serialized) }
        }
    }
    var pinDisplayHandler: ((String, MACAddress) -> Void)? {
        didSet {
            let display = pinDisplayHandler
            firmware.pinDisplayHandler = { shown in display?(shown.pin.digits, shown.peer) }
        }
    }

    /// `performanceMode`: the listener's mode when the session asked for one; kept across
    /// restarts, as `accessory-emu --mode` is.
    init(profile: AccessoryProfile, air: any Air, options: AccessoryOptions, performanceMode: PerformanceMode? = nil) {
        let path = NSTemporaryDirectory() + "awb-embedded-\(UUID().uuidString.prefix(8))"
        let state = try? AccessoryStateDirectory(path: path)
        statePath = state == nil ? nil : path
        var options = options
        options.boot = 1
        // Boots are counted here: a new boot draws a new NIRA nonce.
        firmware = AccessoryFirmware(
            profile: profile,
            air: air,
            options: options,
            state: state,
            countsBootsOnDisk: false,
            performanceMode: performanceMode
        )
    }

    deinit {
        if let statePath { try? FileManager.default.removeItem(atPath: statePath) }
    }

    var accessory: Accessory { firmware.accessory }
    var address: MACAddress { firmware.accessory.address }
    func start() throws { try firmware.start() }
    func stop() { firmware.stop() }
    func restart(newAddress: MACAddress?) throws { try firmware.reboot(newAddress: newAddress) }
    func factoryReset() throws { _ = try firmware.factoryReset() }
    func enterPIN(_ pin: String) -> Bool { firmware.accessory.enterPIN(pin) }

    func updateServiceInfo(service: String, txt: [String: String]) throws {
        firmware.accessory.updateServiceInfo(service: service, txt: txt)
    }

    /// Builds accessories from profile documents for the embedded target.
    static let factory: EmbeddedAccessoryFactory = { document, request, air in
        let loaded = Result { () throws(ProfileError) in try ProfileLoader.load(bytes: [UInt8](document)) }
        let profile: AccessoryProfile
        switch loaded {
        case .success(let value): profile = value
        case .failure(let error):
            throw TargetError(
                "the profile variant does not load: \(error.lines(file: "variant").joined(separator: "; "))"
            )
        }
        let options = AccessoryOptions(
            seed: request.seed,
            faults: Set(request.faults.compactMap(AccessoryFault.init(rawValue:))),
            unsynchronized: request.unsynchronized,
            pinSource: .seeded
        )
        if let mode = request.accessoryMode, !profile.performance.supportedModes.contains(mode) {
            throw TargetError("the profile does not offer the \(mode.rawValue) performance mode")
        }
        return EmbeddedAccessoryAdapter(
            profile: profile,
            air: air,
            options: options,
            performanceMode: request.accessoryMode
        )
    }
}

extension ProfileFacts {
    /// What the catalogue needs to know about a profile to decide which tests apply.
    init(profile: AccessoryProfile, path: String) {
        self.init(
            path: path,
            services: profile.services.map { service in
                ServiceFacts(
                    name: service.name,
                    instanceID: service.instanceId,
                    publishesUnsolicited: service.publishType.sendsUnsolicited,
                    answersSubscribes: service.publishType.answersSubscribes,
                    matchFilter: service.matchFilter,
                    ttlSeconds: service.ttlSeconds,
                    txtKeys: profile.pairingTXTEntries.map(\.key)
                        + (service.serviceInfo?.sortedTXTEntries.map(\.key) ?? []),
                    publishPeriodDWs: service.publishPeriodDWs
                )
            },
            offersPairing: profile.offersPairing,
            bootstrappingMethods: profile.pairing?.bootstrappingMethods.map(\.rawValue) ?? [],
            vendorName: profile.device.vendorName,
            modelName: profile.device.modelName,
            pairingName: profile.device.pairingName,
            dataPath: DataPathFacts(profile: profile),
            nikLifetimeSeconds: profile.pairing.flatMap { $0.cache.nik ? $0.cache.nikLifetimeSeconds : nil },
            pin: profile.pairing.map {
                PINFacts(length: $0.pin.length, fixed: $0.pin.fixed, maxWrongAttempts: $0.pin.maxWrongAttempts)
            },
            pairedDeviceLimit: profile.pairing.map { pairing in
                let whenFull: PairedDeviceLimit.WhenFull =
                    switch pairing.whenFull {
                    case .refuse: .refuse
                    case .replaceOldest: .replaceOldest
                    }
                return PairedDeviceLimit(count: pairing.maxPairedDevices, whenFull: whenFull)
            },
            maxDataPathPeers: profile.radio.maxDataPathPeers,
            subscriptions: profile.subscribedServices.map { SubscriptionFacts(name: $0.name, dataPath: $0.datapath) }
        )
    }
}

extension DataPathFacts {
    /// The data-path facts of `profile`; nil when no service takes data paths.
    init?(profile: AccessoryProfile) {
        guard let first = profile.services.first(where: { $0.datapath != nil }) else { return nil }
        var classes: [String: String] = [:]
        for mode in profile.performance.supportedModes {
            if let serviceClass = profile.performance.serviceClass(for: mode) {
                classes[mode.rawValue] = serviceClass.rawValue
            }
        }
        let telemetry = profile.app?.telemetry.map { app in
            DataPathFacts.Telemetry(
                service: app.service,
                port: app.port ?? profile.services.first(where: { $0.name == app.service })?.datapath?.port ?? 7000,
                rateHz: app.rateHz,
                payloadBytes: app.payloadBytes
            )
        }
        let files = profile.app?.fileService.map { app in
            DataPathFacts.FileService(
                service: app.service,
                port: app.port ?? profile.services.first { $0.name == app.service }?.datapath?.port ?? 7000,
                files: app.files.map { DataPathFacts.File(name: $0.name, size: $0.sizeBytes) }
            )
        }
        self.init(
            service: first.name,
            port: first.datapath?.port ?? 7000,
            defaultMode: profile.performance.defaultMode.rawValue,
            serviceClasses: classes,
            realtimeMaxLatencyMs: profile.performance.realtime?.maxLatencyMs,
            bulkMinThroughputMbps: profile.performance.bulk?.minThroughputMbps,
            allowsOpen: profile.services.contains { $0.datapath?.allowOpen == true },
            telemetry: telemetry,
            fileService: files,
            benchProtocol: profile.app?.benchProtocol ?? false
        )
    }
}

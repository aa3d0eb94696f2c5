import AccessoryKit
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// The embedded target's accessory: AccessoryKit's accessory behind ConformanceKit's
/// protocol. This file is the only place the runner and the emulator meet, as
/// ARCHITECTURE.md asks (ConformanceKit never imports AccessoryKit).
final class EmbeddedAccessoryAdapter: EmbeddedAccessory {
    let accessory: Accessory
    var eventHandler: ((String) -> Void)? {
        didSet {
            let handler = eventHandler
            accessory.eventHandler = { event in handler?(event.json.serialized) }
        }
    }

    init(_ accessory: Accessory) {
        self.accessory = accessory
    }

    var address: MACAddress { accessory.address }
    func start() throws { try accessory.start() }
    func stop() { accessory.stop() }
    func updateServiceInfo(service: String, txt: [String: String]) throws {
        accessory.updateServiceInfo(service: service, txt: txt)
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
            unsynchronized: request.unsynchronized
        )
        return EmbeddedAccessoryAdapter(Accessory(profile: profile, air: air, options: options))
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
                        + (service.serviceInfo?.sortedTXTEntries.map(\.key) ?? [])
                )
            },
            offersPairing: profile.offersPairing,
            bootstrappingMethods: profile.pairing?.bootstrappingMethods.map(\.rawValue) ?? [],
            vendorName: profile.device.vendorName,
            modelName: profile.device.modelName,
            pairingName: profile.device.pairingName
        )
    }
}

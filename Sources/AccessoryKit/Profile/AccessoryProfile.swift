import AwareCore
import AwareWire

/// An accessory profile after loading: every rule checked and every default filled in.
///
/// The JSON file format is described in docs/reference/profile-reference.md and Profiles/profile.schema.json.
/// Load files with `ProfileLoader`; the Codable conformance reads and writes this normalized form
/// (every default written out), which is itself a valid profile.
public struct AccessoryProfile: Codable, Hashable, Sendable {
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Free text for people; the accessory does not use it.
    public var description: String?
    public var device: DeviceIdentity
    public var radio: RadioSettings
    public var services: [ServiceProfile]
    /// Present when the accessory offers NAN pairing; then `device.pairingName` is set.
    public var pairing: PairingSettings?
    public var performance: PerformanceSettings
    public var app: AppProfile?
    /// Services the accessory subscribes to (the reverse role); absent = none.
    public var subscriptions: [SubscriptionProfile]?

    public init(
        formatVersion: Int = AccessoryProfile.currentFormatVersion,
        description: String? = nil,
        device: DeviceIdentity,
        radio: RadioSettings = RadioSettings(),
        services: [ServiceProfile],
        pairing: PairingSettings? = nil,
        performance: PerformanceSettings = PerformanceSettings(),
        app: AppProfile? = nil,
        subscriptions: [SubscriptionProfile]? = nil
    ) {
        self.formatVersion = formatVersion
        self.description = description
        self.device = device
        self.radio = radio
        self.services = services
        self.pairing = pairing
        self.performance = performance
        self.app = app
        self.subscriptions = subscriptions
    }

    /// The services the accessory subscribes to, in the profile's order.
    public var subscribedServices: [SubscriptionProfile] { subscriptions ?? [] }

    /// Whether the accessory takes part in pairing setup (PIN display, NPK/NIK exchange).
    public var offersPairing: Bool { pairing != nil }

    /// The TXT entries the phone reads during pairing setup, in the order they are sent
    /// (apple-peer-model.md 2.1: `vendorName`, `modelName`, `pairingName`).
    public var pairingTXTEntries: [(key: String, value: String)] {
        var entries = [(key: "vendorName", value: device.vendorName), (key: "modelName", value: device.modelName)]
        if let pairingName = device.pairingName { entries.append((key: "pairingName", value: pairingName)) }
        return entries
    }
}

// MARK: - AccessoryProfile+Summary

extension AccessoryProfile {
    /// A few lines saying who the accessory is and what it publishes, for `profile validate`.
    public var summaryLines: [String] {
        var lines: [String] = []
        var who = "device: \(device.vendorName) / \(device.modelName)"
        if let pairingName = device.pairingName { who += ", pairing name \"\(pairingName)\"" }
        lines.append(who)
        for service in services {
            var parts = ["instance \(service.instanceId)", Self.phrase(service.publishType)]
            if let filter = service.matchFilter { parts.append("filter \(filter)") }
            if let ttl = service.ttlSeconds { parts.append("for \(ttl) s") }
            if let period = service.publishPeriodDWs, period > 1 { parts.append("announced every \(period) windows") }
            if let datapath = service.datapath {
                parts.append("data path" + (datapath.port.map { " on port \($0)" } ?? ""))
            }
            lines.append("publishes \(service.name) (" + parts.joined(separator: ", ") + ")")
        }
        for subscription in subscribedServices {
            lines.append(
                "subscribes to \(subscription.name) (pairs as initiator with PIN keypad"
                    + (subscription.datapath ? ", then opens the data path)" : ")")
            )
        }
        if let pairing {
            let methods = pairing.bootstrappingMethods.map(\.rawValue).joined(separator: ", ")
            let pin = pairing.pin.fixed.map { "fixed PIN \($0)" } ?? "random \(pairing.pin.length)-digit PIN"
            var cached: [String] = []
            if pairing.cache.npk { cached.append("NPK") }
            if pairing.cache.nik { cached.append("NIK") }
            let cache = cached.isEmpty ? "caches no keys" : "caches " + cached.joined(separator: " and ")
            let full =
                switch pairing.whenFull {
                case .refuse: "then refuses a new phone"
                case .replaceOldest: "then a new phone replaces the oldest"
                }
            lines.append(
                "pairing: \(methods); \(pin), \(pairing.pin.maxWrongAttempts) wrong attempts then "
                    + "\(pairing.pin.lockoutSeconds) s lockout; \(cache); "
                    + "keeps \(pairing.maxPairedDevices) pairing(s), \(full)"
            )
        } else {
            lines.append("pairing: not offered")
        }
        if services.contains(where: { $0.datapath != nil }) {
            lines.append("data paths: with up to \(radio.maxDataPathPeers) phone(s) at once")
        }
        let modes = performance.supportedModes.map { mode in
            "\(mode.rawValue) (\(performance.serviceClass(for: mode)?.rawValue ?? "?"))"
        }
        lines.append("performance: " + modes.joined(separator: ", ") + "; default \(performance.defaultMode.rawValue)")
        if let app {
            if let telemetry = app.telemetry {
                lines.append(
                    "app: telemetry on \(telemetry.service), \(Self.number(telemetry.rateHz)) Hz x "
                        + "\(telemetry.payloadBytes) bytes"
                )
            }
            if let files = app.fileService {
                lines.append("app: file service on \(files.service), \(files.files.count) file(s)")
            }
            if let audio = app.audioStream {
                lines.append(
                    "app: audio stream on \(audio.service), \(audio.sampleRateHz) Hz, \(audio.channels) channel(s)"
                )
            }
            if let control = app.control { lines.append("app: control on \(control.service)") }
            if app.benchProtocol {
                lines.append("app: the bench's application protocol (ping, streams, report, files)")
            }
        }
        return lines
    }

    private static func phrase(_ type: PublishType) -> String {
        switch type {
        case .unsolicited: return "unsolicited"
        case .solicited: return "solicited"
        case .both: return "solicited + unsolicited"
        }
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

// MARK: - DeviceIdentity

/// Who the accessory says it is. AccessorySetupKit compares `vendorName` and `modelName` with the
/// app's discovery descriptor and shows `pairingName` in its picker (apple-peer-model.md 2.1).
public struct DeviceIdentity: Codable, Hashable, Sendable {
    public var vendorName: String
    public var modelName: String
    public var pairingName: String?

    public init(vendorName: String, modelName: String, pairingName: String? = nil) {
        self.vendorName = vendorName
        self.modelName = modelName
        self.pairingName = pairingName
    }
}

// MARK: - RadioSettings

/// Optional radio identity: a fixed NAN Management Interface address, or a seed from which the
/// emulator derives one, the discovery channels, and how many phones it serves data paths to at
/// once.
public struct RadioSettings: Codable, Hashable, Sendable {
    /// Discovery channels when the profile names none: 6 (mandatory for NAN) and 149.
    public static let defaultDiscoveryChannels = [6, 149]
    /// The phones the emulator serves data paths to at once: one to eight. Eight is what it was
    /// measured to hold, each phone with its own NDL and data path carrying the profile's app
    /// traffic (DataPathPeerLimitTests); the NDLs share the accessory's one schedule.
    public static let maxDataPathPeersRange: ClosedRange<Int> = 1...8

    /// A fixed unicast NMI, `02:00:00:00:00:01` form. Exclusive with `nmiSeed`.
    public var nmi: String?
    /// Seed for a reproducible random NMI. Exclusive with `nmi`.
    public var nmiSeed: UInt32?
    public var discoveryChannels: [Int]
    /// How many phones may hold data paths (an NDL) with the accessory at once. A Data Path
    /// Request from one more phone is refused with RESOURCE_LIMITATION (nan-wire-reference.md
    /// 2.11); a phone that holds an NDL already may open more data paths on it.
    public var maxDataPathPeers: Int

    public init(
        nmi: String? = nil,
        nmiSeed: UInt32? = nil,
        discoveryChannels: [Int] = Self.defaultDiscoveryChannels,
        maxDataPathPeers: Int = Self.maxDataPathPeersRange.upperBound
    ) {
        self.nmi = nmi
        self.nmiSeed = nmiSeed
        self.discoveryChannels = discoveryChannels
        self.maxDataPathPeers = maxDataPathPeers
    }

    public var nmiAddress: MACAddress? { nmi.flatMap { MACAddress(string: $0) } }
}

/// What the accessory's profile declares, reduced to the facts tests are gated on (the ICS/PICS of this
/// bench: Bluetooth's Implementation Conformance Statement, Matter's PICS). The integrator builds it from the loaded profile.
public struct ProfileFacts: Hashable, Sendable {
    /// The profile file as the user named it, for reports and rerun commands.
    public var path: String
    public var services: [ServiceFacts]
    /// The profile has a pairing section (PIN display, PASN, key caching).
    public var offersPairing: Bool
    /// The bootstrapping methods the accessory advertises, in the profile's words (`pinDisplay`).
    public var bootstrappingMethods: [String]
    /// The identity the accessory announces in its TXT record (apple-peer-model.md).
    public var vendorName: String?
    public var modelName: String?
    public var pairingName: String?
    /// Data paths, performance modes and application services; nil when no service takes data paths.
    public var dataPath: DataPathFacts?
    /// How long a phone may keep the accessory's NIK (`pairing.cache.nikLifetimeSeconds`, 0 = no
    /// expiry); nil when the accessory hands out no NIK.
    public var nikLifetimeSeconds: Int?
    /// The PIN the accessory shows: one per attempt, or the same every time (a label); nil when
    /// the profile offers no pairing.
    public var pin: PINFacts?
    /// The most phones the accessory keeps pairing keys for, and what one more gets; nil when
    /// the profile offers no pairing.
    public var pairedDeviceLimit: PairedDeviceLimit?
    /// How many phones may hold data paths with the accessory at once (`radio.maxDataPathPeers`):
    /// 1 for an accessory that serves one phone at a time.
    public var maxDataPathPeers: Int
    /// The services the accessory subscribes to, pairing with their publishers as the initiator
    /// (the reverse role, `subscriptions`), and whether it then opens a data path to each.
    public var subscriptions: [SubscriptionFacts]

    public init(
        path: String,
        services: [ServiceFacts],
        offersPairing: Bool = false,
        bootstrappingMethods: [String] = [],
        vendorName: String? = nil,
        modelName: String? = nil,
        pairingName: String? = nil,
        dataPath: DataPathFacts? = nil,
        nikLifetimeSeconds: Int? = nil,
        pin: PINFacts? = nil,
        pairedDeviceLimit: PairedDeviceLimit? = nil,
        maxDataPathPeers: Int = 8,
        subscriptions: [SubscriptionFacts] = []
    ) {
        self.subscriptions = subscriptions
        self.pin = pin
        self.pairedDeviceLimit = pairedDeviceLimit
        self.maxDataPathPeers = maxDataPathPeers
        self.dataPath = dataPath
        self.nikLifetimeSeconds = nikLifetimeSeconds
        self.vendorName = vendorName
        self.modelName = modelName
        self.pairingName = pairingName
        self.path = path
        self.services = services
        self.offersPairing = offersPairing
        self.bootstrappingMethods = bootstrappingMethods
    }
}

/// A service the accessory subscribes to (`subscriptions[]`): the phone publishes it.
public struct SubscriptionFacts: Hashable, Sendable {
    public var name: String
    /// The accessory opens a data path to the publisher once paired.
    public var dataPath: Bool

    public init(name: String, dataPath: Bool = true) {
        self.name = name
        self.dataPath = dataPath
    }
}

/// The accessory's PIN policy (`pairing.pin`): a device with a screen shows a fresh PIN for
/// every attempt; a headless one prints a fixed PIN on a label (apple-peer-model.md 3).
public struct PINFacts: Hashable, Sendable {
    /// Digits in the PIN.
    public var length: Int
    /// The label's PIN when the profile declares it fixed (`pairing.pin.fixed`); nil for a fresh
    /// PIN per attempt.
    public var fixed: String?
    /// Wrong PINs in a row from one phone before it is locked out (`pairing.pin.maxWrongAttempts`).
    public var maxWrongAttempts: Int

    public init(length: Int, fixed: String? = nil, maxWrongAttempts: Int = 3) {
        self.length = length
        self.fixed = fixed
        self.maxWrongAttempts = maxWrongAttempts
    }

    /// The accessory shows the same PIN for every attempt.
    public var isFixed: Bool { fixed != nil }
}

/// How many phones the accessory keeps pairing keys for (`pairing.maxPairedDevices`) and what
/// happens to one more (`pairing.whenFull`). Both answers are legitimate firmware policy.
public struct PairedDeviceLimit: Hashable, Sendable {
    public enum WhenFull: String, Hashable, Sendable, CaseIterable {
        /// The new phone is refused (reason paired-device-limit) until the user removes one.
        case refuse
        /// The new phone pairs and the oldest pairing (the earliest made) is forgotten.
        case replaceOldest
    }

    public var count: Int
    public var whenFull: WhenFull

    public init(count: Int, whenFull: WhenFull = .refuse) {
        self.count = count
        self.whenFull = whenFull
    }
}

/// What the runner may assume about one service the profile publishes. The `aware-conform` executable
/// fills it from AccessoryKit's `ServiceProfile`; ConformanceKit never reads profiles itself, so the
/// accessory is only ever judged through the air against what its maker declared.
public struct ServiceFacts: Hashable, Sendable {
    /// The service name as sent over the air (`_drone-service._udp`).
    public var name: String
    public var instanceID: Int
    /// Publish type unsolicited or both.
    public var publishesUnsolicited: Bool
    /// Publish type solicited or both: the service answers active subscribes.
    public var answersSubscribes: Bool
    /// The service's matching filter SPEC, if it has one.
    public var matchFilter: String?
    /// Seconds the publish lasts; nil for a publish without a TTL.
    public var ttlSeconds: Int?
    /// The DNS-SD TXT keys the service carries in its SDEA service info.
    public var txtKeys: [String]
    /// Unsolicited publishes in every Nth discovery window (`publishPeriodDWs`); nil when the
    /// profile does not say (every window).
    public var publishPeriodDWs: Int?

    public init(
        name: String,
        instanceID: Int,
        publishesUnsolicited: Bool,
        answersSubscribes: Bool,
        matchFilter: String? = nil,
        ttlSeconds: Int? = nil,
        txtKeys: [String] = [],
        publishPeriodDWs: Int? = nil
    ) {
        self.publishPeriodDWs = publishPeriodDWs
        self.name = name
        self.instanceID = instanceID
        self.publishesUnsolicited = publishesUnsolicited
        self.answersSubscribes = answersSubscribes
        self.matchFilter = matchFilter
        self.ttlSeconds = ttlSeconds
        self.txtKeys = txtKeys
    }
}

/// What the profile declares about data paths, for the `WA/NDP` and `WA/PERF` tests
/// (apple-peer-model.md 1.7, 5.17). Filled by the `aware-conform` executable from the profile.
public struct DataPathFacts: Hashable, Sendable {
    /// A stream of telemetry datagrams the accessory sends on every data path.
    public struct Telemetry: Hashable, Sendable {
        public var service: String
        /// The UDP port it comes from (`app.telemetry.port`, else the service's).
        public var port: Int
        public var rateHz: Double
        public var payloadBytes: Int
        public init(service: String, port: Int = 7000, rateHz: Double, payloadBytes: Int) {
            self.service = service
            self.port = port
            self.rateHz = rateHz
            self.payloadBytes = payloadBytes
        }
    }

    /// A `_file-service._tcp` style file server.
    public struct FileService: Hashable, Sendable {
        public var service: String
        public var port: Int
        public var files: [File]
        public init(service: String, port: Int, files: [File]) {
            self.service = service
            self.port = port
            self.files = files
        }
    }

    public struct File: Hashable, Sendable {
        public var name: String
        public var size: Int
        public init(name: String, size: Int) {
            self.name = name
            self.size = size
        }
    }

    /// The first service that takes data paths, and its application port.
    public var service: String
    public var port: Int
    /// The accessory listener's mode when the profile is not changed ("bulk" or "realtime").
    public var defaultMode: String
    /// The modes the profile offers, with the service class (its raw value) of each.
    public var serviceClasses: [String: String]
    public var realtimeMaxLatencyMs: Double?
    public var bulkMinThroughputMbps: Double?
    /// The profile accepts data paths without security.
    public var allowsOpen: Bool
    public var telemetry: Telemetry?
    public var fileService: FileService?
    /// The accessory speaks the bench's own application protocol (`app.benchProtocol`).
    public var benchProtocol: Bool

    /// The data service runs over TCP (its name ends in `._tcp`, RFC 6763 7): the runner
    /// connects to its port.
    public var serviceIsTCP: Bool { service.hasSuffix("._tcp") }

    public init(
        service: String,
        port: Int,
        defaultMode: String,
        serviceClasses: [String: String],
        realtimeMaxLatencyMs: Double? = nil,
        bulkMinThroughputMbps: Double? = nil,
        allowsOpen: Bool = false,
        telemetry: Telemetry? = nil,
        fileService: FileService? = nil,
        benchProtocol: Bool = false
    ) {
        self.benchProtocol = benchProtocol
        self.service = service
        self.port = port
        self.defaultMode = defaultMode
        self.serviceClasses = serviceClasses
        self.realtimeMaxLatencyMs = realtimeMaxLatencyMs
        self.bulkMinThroughputMbps = bulkMinThroughputMbps
        self.allowsOpen = allowsOpen
        self.telemetry = telemetry
        self.fileService = fileService
    }

    public var modes: [String] { serviceClasses.keys.sorted() }
}

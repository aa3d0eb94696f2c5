import AwareCore
import AwareDevice
import AwareWire

/// One published service.
public struct ServiceProfile: Codable, Hashable, Sendable {
    /// The fully qualified name, exactly as sent over the air (`_drone-service._udp`).
    public var name: String
    /// The publish instance ID (1...255). Profiles may leave it out: the loader gives such services
    /// the lowest IDs no other service claims, in file order.
    public var instanceId: Int
    public var publishType: PublishType
    /// A matching filter SPEC (`drone:*:v2`): the TX filter of unsolicited publishes and the RX
    /// filter that active subscribers' filters are matched against.
    public var matchFilter: String?
    public var serviceInfo: ServiceInfo?
    /// How long the publish lasts; nil publishes until the accessory stops.
    public var ttlSeconds: Int?
    /// Discovery Range Limited (SDA Service Control bit 5, nan-wire-reference.md 2.4): only
    /// phones close by discover the service or get answers.
    public var rangeLimited: Bool
    /// How the accessory accepts data paths for this service; nil means it accepts none.
    public var datapath: DatapathSettings?
    /// Unsolicited publishes go out in every Nth discovery window (512 TU apart), a power-saving
    /// accessory's choice; nil is every window. The runner checks the accessory keeps to it and
    /// that a phone's search outlasts it (docs/phones.md).
    public var publishPeriodDWs: Int?

    public init(
        name: String,
        instanceId: Int,
        publishType: PublishType,
        matchFilter: String? = nil,
        serviceInfo: ServiceInfo? = nil,
        ttlSeconds: Int? = nil,
        rangeLimited: Bool = false,
        datapath: DatapathSettings? = nil,
        publishPeriodDWs: Int? = nil
    ) {
        self.publishPeriodDWs = publishPeriodDWs
        self.rangeLimited = rangeLimited
        self.name = name
        self.instanceId = instanceId
        self.publishType = publishType
        self.matchFilter = matchFilter
        self.serviceInfo = serviceInfo
        self.ttlSeconds = ttlSeconds
        self.datapath = datapath
    }

    /// The validated name; nil only for a hand-built value that breaks the rule.
    public var serviceName: ServiceName? { try? ServiceName(name) }

    /// The parsed filter; nil when there is none (or a hand-built value holds a bad SPEC).
    public var matchingFilter: MatchingFilter? { matchFilter.flatMap { try? MatchingFilter(spec: $0) } }
}

// MARK: - ServiceProfile+Transport

extension ServiceProfile {
    /// The port the service's application listens on over a data path: the profile's
    /// `datapath.port`, else ``AppPorts/defaultService``.
    var dataPathPort: UInt16 { UInt16(clamping: datapath?.port ?? Int(AppPorts.defaultService)) }

    /// What the accessory's Data Path Response names as this service's transport: its port and
    /// the protocol its name's suffix names (`._udp` 17, `._tcp` 6; RFC 6763 7: the suffix names
    /// the transport), in Android's layout (``GenericServiceProtocol/init(transportPort:transportProtocol:)``).
    /// nil under the `ndp-no-transport-info` fault; `ndp-wrong-transport-protocol` names the
    /// other protocol (TCP for a `._udp` service).
    func transportInfo(faults: Set<AccessoryFault>) -> GenericServiceProtocol? {
        guard !faults.contains(.noTransportInfo) else { return nil }
        var transport = try? ServiceName(name).transportProtocol
        if faults.contains(.wrongTransportProtocol) { transport = transport == .tcp ? .udp : .tcp }
        return GenericServiceProtocol(transportPort: dataPathPort, transportProtocol: transport?.ipProtocolNumber)
    }
}

// MARK: - PublishType

/// How a service is published (nan-wire-reference.md 1: solicited publishes answer subscribes,
/// unsolicited ones are sent on their own).
public enum PublishType: String, Codable, Hashable, Sendable, CaseIterable {
    case unsolicited
    case solicited
    case both

    public var sendsUnsolicited: Bool { self != .solicited }
    public var answersSubscribes: Bool { self != .unsolicited }
}

// MARK: - ServiceInfo

/// The service-specific info a publish carries: DNS-SD TXT entries (sent after the pairing TXT
/// entries), or raw text, or raw octets. Exactly one is set.
public struct ServiceInfo: Codable, Hashable, Sendable {
    /// Extra TXT entries; sent sorted by key after `vendorName`, `modelName`, `pairingName`.
    public var txt: [String: String]?
    public var text: String?
    /// Lower- or upper-case hex digits.
    public var hex: String?

    public init(txt: [String: String]? = nil, text: String? = nil, hex: String? = nil) {
        self.txt = txt
        self.text = text
        self.hex = hex
    }

    /// The octets of a `text` or `hex` service info; nil for TXT, which needs the device identity.
    public var rawOctets: [UInt8]? {
        if let text { return Array(text.utf8) }
        if let hex { return HexString.decode(hex) }
        return nil
    }

    /// The extra TXT entries in the order they are sent.
    public var sortedTXTEntries: [(key: String, value: String)] {
        (txt ?? [:]).sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }
}

// MARK: - DatapathSettings

/// How the accessory answers data-path requests for a service. The phone only sets up data paths
/// with paired devices, secured with keys from pairing (apple-peer-model.md 5.17).
public struct DatapathSettings: Codable, Hashable, Sendable {
    /// The port the application listens on, advertised in the data-path setup.
    public var port: Int?
    public var cipherSuites: [PairingCipherSuite]
    /// Accept a paired peer's request without asking the application (Espressif accessories do).
    public var autoAccept: Bool
    /// Accept data paths without security. Off by default: the phone only sets up secured data
    /// paths, so an accessory that accepts an open one is misconfigured (reason 8 otherwise).
    public var allowOpen: Bool
    /// A shared key (CSID 1/2) for peers that did not pair; nil: only paired peers.
    public var sharedKey: DatapathSharedKey?

    public init(
        port: Int? = nil,
        cipherSuites: [PairingCipherSuite] = [.pasn128],
        autoAccept: Bool = true,
        allowOpen: Bool = false,
        sharedKey: DatapathSharedKey? = nil
    ) {
        self.port = port
        self.cipherSuites = cipherSuites
        self.autoAccept = autoAccept
        self.allowOpen = allowOpen
        self.sharedKey = sharedKey
    }
}

// MARK: - DatapathSharedKey

/// A shared key for data paths with peers that did not pair (NCS-SK, CSID 1 and 2,
/// nan-wire-reference.md 4.2): a non-Apple profile may offer one next to, or instead of, the
/// keys from pairing. The phone never uses it (apple-peer-model.md 5.17).
public struct DatapathSharedKey: Codable, Hashable, Sendable {
    public enum Secret: Hashable, Sendable {
        /// ND-PMK = PBKDF2(passphrase, salt with the service ID and publisher NMI).
        case passphrase(String)
        /// The 32-octet PMK itself.
        case pmk([UInt8])
    }

    /// NCS-SK-128 (CSID 1) or NCS-SK-256 (CSID 2).
    public enum Suite: String, Codable, Hashable, Sendable, CaseIterable {
        case sk128 = "NCS-SK-128"
        case sk256 = "NCS-SK-256"

        public var csid: UInt8 { self == .sk128 ? 1 : 2 }
    }

    public var secret: Secret
    public var suite: Suite

    public init(secret: Secret, suite: Suite = .sk128) {
        self.secret = secret
        self.suite = suite
    }

    enum CodingKeys: String, CodingKey {
        case passphrase
        case pmk
        case suite
    }

    /// The profile's own form (`{"passphrase": ...}` or `{"pmk": "64 hex digits"}`, and `suite`),
    /// so that a normalized profile loads back through the validator unchanged.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        suite = try container.decodeIfPresent(Suite.self, forKey: .suite) ?? .sk128
        if let text = try container.decodeIfPresent(String.self, forKey: .passphrase) {
            secret = .passphrase(text)
        } else {
            let hex = try container.decode(String.self, forKey: .pmk)
            guard let octets = HexString.decode(hex), octets.count == 32 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .pmk,
                    in: container,
                    debugDescription: "pmk must be 64 hex digits"
                )
            }
            secret = .pmk(octets)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch secret {
        case .passphrase(let text): try container.encode(text, forKey: .passphrase)
        case .pmk(let octets): try container.encode(HexString.encode(octets), forKey: .pmk)
        }
        try container.encode(suite, forKey: .suite)
    }
}

import AwareCore
import AwareWire

/// What the rules know of the whole capture when they judge a frame, learned in the analyzer's
/// first pass (``CaptureAnalysis``): the profile's expectations, the pairings the capture shows,
/// the discovery-window clock, the devices that cache keys and the addresses of the devices
/// under test. It keeps what the frames showed, not the frames: its size grows with the NAN
/// beacons (the clock keeps 24 octets per beacon), the devices and the pairings, not with the
/// capture's octets.
public struct AnalysisContext: Sendable {
    public var profile: AnalysisProfile
    public private(set) var pairings = PairingTimeline()
    public private(set) var clock = DiscoveryWindowClock()
    /// NMIs whose DCEA says NPK/NIK caching anywhere in the capture (nan-wire-reference.md 2.16).
    public private(set) var cachingDevices: Set<MACAddress> = []
    /// The devices under test (``AnalysisProfile/devices``) and the NDIs they announced for
    /// themselves in data-path NAFs: the Initiator NDI of a Request they sent, the Responder NDI
    /// of a Response they sent (4.1). Data frames travel between NDIs, not NMIs.
    public private(set) var deviceAddresses: Set<MACAddress>
    /// The capture time of each frame that completed a pairing (PASN frame 3), by frame number.
    public private(set) var completionTimes: [Int: UInt64] = [:]

    public init(profile: AnalysisProfile = AnalysisProfile()) {
        self.profile = profile
        deviceAddresses = profile.devices
    }

    /// First pass: learns from one frame; frames come in capture order.
    public mutating func learn(from frame: CaptureFrame) {
        pairings.add(frame)
        if pairings.pairings.last?.completedAt == frame.number { completionTimes[frame.number] = frame.timestamp }
        clock.add(frame)
        guard let management = frame.management else { return }
        for case .deviceCapabilityExtension(let dcea) in Self.attributes(of: management) where dcea.npkNIKCachingEnabled
        {
            cachingDevices.insert(management.header.address2)
        }
        if profile.devices.contains(management.header.address2), case .nanAction(let naf) = management.body {
            for fields in Self.dataPathFields(of: naf) {
                switch naf.subtype {
                case .dataPathRequest: deviceAddresses.insert(fields.initiatorNDI)
                case .dataPathResponse: if let responder = fields.responderNDI { deviceAddresses.insert(responder) }
                default: break
                }
            }
        }
    }

    /// Ends the first pass: the clock orders its beacons for the second.
    public mutating func finishLearning() {
        clock.finish()
    }

    /// The NAN attributes a management frame carries, wherever they sit: SDF and NAF bodies,
    /// the NAN element of a beacon or of a PASN Authentication frame.
    public static func attributes(of management: ManagementFrame) -> [NANAttribute] {
        switch management.body {
        case .serviceDiscovery(let sdf): sdf.attributes
        case .nanAction(let naf): naf.attributes
        case .nanBeacon(let beacon): beacon.attributes
        case .pasnAuthentication(let pasn): pasn.nanElement?.attributes ?? []
        case .otherAction, .otherManagement, .protected: []
        }
    }

    /// The NDP / NDPE attributes of a NAF (nan-wire-reference.md 2.10): the common fields, the
    /// two carry the same Initiator NDI, NDP Control and Responder NDI.
    public static func dataPathFields(of naf: NANActionFrame) -> [NDPCommonFields] {
        naf.attributes.compactMap { attribute in
            switch attribute {
            case .ndp(let ndp): ndp.common
            case .ndpExtension(let ndpe): ndpe.common
            default: nil
            }
        }
    }

    /// "SDF Publish from 02:a0:00:00:00:01 to 51:6f:9a:01:00:00": what and where, for messages.
    public static func describe(_ management: ManagementFrame) -> String {
        "\(management.summary) from \(management.header.address2) to \(management.header.address1)"
    }
}

extension ManagementFrameBody {
    /// An SDF or NAF (nan-wire-reference.md 1.1).
    var isNANAction: Bool {
        switch self {
        case .serviceDiscovery, .nanAction: true
        default: false
        }
    }

    /// The Action frame Category, when the body is a readable Action frame.
    var actionCategory: UInt8? {
        switch self {
        case .serviceDiscovery(let sdf): sdf.category.rawValue
        case .nanAction(let naf): naf.category.rawValue
        case .otherAction(let category, _): category
        default: nil
        }
    }
}

extension ServiceDiscoveryFrame {
    /// The DNS-SD TXT records the frame carries: the SDEA Service Info with the WFA OUI and
    /// Service Protocol Type 1 (Bonjour) (nan-wire-reference.md 2.5; apple-peer-model.md 1.6),
    /// each with the SDEA's Instance ID, or the error when its strings run past the field.
    var txtRecords: [(instanceID: UInt8, record: Result<DNSSDTXTRecord, WireError>)] {
        var records: [(instanceID: UInt8, record: Result<DNSSDTXTRecord, WireError>)] = []
        for case .serviceDescriptorExtension(let sdea) in attributes {
            guard let info = sdea.serviceInfo?.serviceSpecificInfo, info.protocolType == .bonjour else { continue }
            do {
                let record = try DNSSDTXTRecord(wireBytes: info.info, structure: "DNS-SD TXT record")
                records.append((sdea.instanceID, .success(record)))
            } catch {
                records.append((sdea.instanceID, .failure(error)))
            }
        }
        return records
    }

    /// The Service Descriptors of type Publish.
    var publishes: [ServiceDescriptorAttribute] {
        attributes.compactMap { if case .serviceDescriptor(let sda) = $0, sda.type == .publish { sda } else { nil } }
    }

    /// The DCEA, when the frame has one.
    var deviceCapabilityExtension: DeviceCapabilityExtensionAttribute? {
        for case .deviceCapabilityExtension(let dcea) in attributes { return dcea }
        return nil
    }

    /// The NPBAs the frame carries.
    var pairingBootstrapping: [PairingBootstrappingAttribute] {
        attributes.compactMap { if case .pairingBootstrapping(let npba) = $0 { npba } else { nil } }
    }

    /// The NIRA, when the frame has one.
    var identityResolution: IdentityResolutionAttribute? {
        for case .identityResolution(let nira) in attributes { return nira }
        return nil
    }
}

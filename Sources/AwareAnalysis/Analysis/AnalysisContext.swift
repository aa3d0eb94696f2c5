import AwareCore
import AwareWire

/// Everything the rules read, computed once per capture: the frames, the profile's
/// expectations, the pairings the capture shows and the discovery-window clock.
public struct AnalysisContext: Sendable {
    public var frames: [CaptureFrame]
    public var profile: AnalysisProfile
    public var pairings: PairingTimeline
    public var clock: DiscoveryWindowClock
    /// Frame numbers that repeat the previous frame of their transmitter (Retry bit set, same
    /// sequence control): a sniffer hears every retransmission, the receiver acts on one.
    public var retransmissions: Set<Int>

    public init(frames: [CaptureFrame], profile: AnalysisProfile = AnalysisProfile()) {
        self.frames = frames
        self.profile = profile
        pairings = PairingTimeline(frames: frames)
        clock = DiscoveryWindowClock(frames: frames)
        var last: [MACAddress: UInt16] = [:]
        var repeated: Set<Int> = []
        for frame in frames {
            let fields: (retry: Bool, transmitter: MACAddress, sequence: UInt16)
            if let header = frame.management?.header {
                fields = (header.frameControl.retry, header.address2, header.sequenceControl.rawValue)
            } else if let data = frame.dataFrame {
                fields = (data.frameControl.retry, data.address2, data.sequenceControl.rawValue)
            } else {
                continue
            }
            if fields.retry, last[fields.transmitter] == fields.sequence { repeated.insert(frame.number) }
            last[fields.transmitter] = fields.sequence
        }
        retransmissions = repeated
        judgedFrames = frames.filter { $0.condition == .whole && $0.frame != nil && !repeated.contains($0.number) }
    }

    /// Frames a rule should judge: whole, parsed, and not a retransmission of the one before.
    public let judgedFrames: [CaptureFrame]

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

    /// NMIs whose DCEA says NPK/NIK caching anywhere in the capture (nan-wire-reference.md 2.16).
    public var cachingDevices: Set<MACAddress> {
        var devices: Set<MACAddress> = []
        for frame in frames {
            guard let management = frame.management else { continue }
            for case .deviceCapabilityExtension(let dcea) in Self.attributes(of: management)
            where dcea.npkNIKCachingEnabled {
                devices.insert(management.header.address2)
            }
        }
        return devices
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

    /// `nmis` and the NDIs they announced for themselves in data-path NAFs: the Initiator NDI of
    /// a Request they sent, the Responder NDI of a Response they sent (4.1). Data frames travel
    /// between NDIs, not NMIs.
    public func addresses(of nmis: Set<MACAddress>) -> Set<MACAddress> {
        var addresses = nmis
        for frame in frames {
            guard let management = frame.management, nmis.contains(management.header.address2),
                case .nanAction(let naf) = management.body
            else { continue }
            for fields in Self.dataPathFields(of: naf) {
                switch naf.subtype {
                case .dataPathRequest: addresses.insert(fields.initiatorNDI)
                case .dataPathResponse: if let responder = fields.responderNDI { addresses.insert(responder) }
                default: break
                }
            }
        }
        return addresses
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

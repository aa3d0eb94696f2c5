/// What follows the management header, decoded as far as NAN needs.
///
/// Frames that are not NAN (an AP beacon, a probe request, an open-system authentication,
/// an action of another category) are values here, not errors, so a sniffer capture lists
/// them; they keep their octets so every frame re-serializes byte-exactly.
public enum ManagementFrameBody: Hashable, Sendable, WireDescribable {
    case serviceDiscovery(ServiceDiscoveryFrame)
    case nanAction(NANActionFrame)
    case nanBeacon(NANBeacon)
    case pasnAuthentication(PASNAuthenticationFrame)
    /// An Action frame that is not an SDF or NAF: its Category and the octets after it.
    case otherAction(category: UInt8, body: [UInt8])
    /// Any other management frame body.
    case otherManagement([UInt8])
    /// The Protected bit is set: the body is CCMP/GCMP ciphertext (nan-wire-reference.md
    /// 3.8) and is not parsed.
    case protected([UInt8])

    /// Decodes a body that fills `reader`, choosing by the header's Frame Control.
    public init(from reader: inout WireReader, frameControl: FrameControl) throws(WireError) {
        let body = reader.bytes[reader.position...]
        if frameControl.isProtected {
            self = .protected(reader.readRemaining())
            return
        }
        switch frameControl.managementSubtype {
        case .some(.action), .some(.actionNoAck):
            guard let category = body.first else {
                self = .otherManagement([])
                return
            }
            switch NANActionHeader.ouiType(of: body) {
            case .some(ServiceDiscoveryFrame.ouiType):
                self = .serviceDiscovery(try ServiceDiscoveryFrame(from: &reader))
            case .some(NANActionFrame.ouiType):
                self = .nanAction(try NANActionFrame(from: &reader))
            default:
                _ = try reader.readUInt8("Category")
                self = .otherAction(category: category, body: reader.readRemaining())
            }
        case .some(.authentication):
            if body.count >= 2, body[body.startIndex] == 7, body[body.startIndex + 1] == 0 {
                self = .pasnAuthentication(try PASNAuthenticationFrame(from: &reader))
            } else {
                self = .otherManagement(reader.readRemaining())
            }
        case .some(.beacon):
            if Self.carriesNANElement(beaconBody: body) {
                self = .nanBeacon(try NANBeacon(from: &reader))
            } else {
                self = .otherManagement(reader.readRemaining())
            }
        default:
            self = .otherManagement(reader.readRemaining())
        }
    }

    /// A beacon is a NAN Beacon when its elements parse and one is the NAN element; an AP
    /// beacon (or a malformed one) is just another management frame.
    private static func carriesNANElement(beaconBody body: ArraySlice<UInt8>) -> Bool {
        guard body.count >= 12 else { return false }
        var reader = WireReader(body.dropFirst(12), structure: "beacon elements")
        while !reader.isAtEnd {
            guard let element = try? ElementFragments.read(from: &reader) else { return false }
            if NANElement.matches(id: element.id, information: element.information) { return true }
        }
        return false
    }

    public func write(to writer: inout WireWriter) {
        switch self {
        case .serviceDiscovery(let frame): frame.write(to: &writer)
        case .nanAction(let frame): frame.write(to: &writer)
        case .nanBeacon(let frame): frame.write(to: &writer)
        case .pasnAuthentication(let frame): frame.write(to: &writer)
        case .otherAction(let category, let body):
            writer.write(category)
            writer.write(body)
        case .otherManagement(let body), .protected(let body): writer.write(body)
        }
    }

    /// Whether this is one of the NAN frames of nan-wire-reference.md 1.1.
    public var isNAN: Bool {
        switch self {
        case .serviceDiscovery, .nanAction, .nanBeacon, .pasnAuthentication: true
        case .otherAction, .otherManagement, .protected: false
        }
    }

    /// A short name: "SDF", "NAF Data Path Request", "PASN Authentication 2", ...
    public var summary: String {
        switch self {
        case .serviceDiscovery(let frame): frame.summary
        case .nanAction(let frame): "NAF \(frame.subtype.name)"
        case .nanBeacon(let frame): "NAN \(frame.beaconTypeName)"
        case .pasnAuthentication(let frame): "PASN Authentication \(frame.transactionSequence)"
        case .otherAction(let category, _): "Action (category \(category))"
        case .otherManagement: "Management"
        case .protected: "Protected"
        }
    }

    public var decodedFields: [DecodedField] {
        switch self {
        case .serviceDiscovery(let frame): frame.decodedFields
        case .nanAction(let frame): frame.decodedFields
        case .nanBeacon(let frame): frame.decodedFields
        case .pasnAuthentication(let frame): frame.decodedFields
        case .otherAction(let category, let body):
            [
                DecodedField("category", "Category", .unsigned(UInt64(category))),
                DecodedField("raw", "Action Body", .bytes(body)),
            ]
        case .otherManagement(let body): [DecodedField("raw", "Frame Body", .bytes(body))]
        case .protected(let body): [DecodedField("raw", "Protected Frame Body", .bytes(body))]
        }
    }
}

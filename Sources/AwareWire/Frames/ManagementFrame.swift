import AwareCore

/// An 802.11 management frame: the MAC header and its body, without FCS.
public struct ManagementFrame: Hashable, Sendable, WireCodable, WireDescribable {
    public var header: ManagementHeader
    public var body: ManagementFrameBody

    public init(header: ManagementHeader, body: ManagementFrameBody) {
        self.header = header
        self.body = body
    }

    /// Reads a header and a body that fills the rest of `reader`.
    public init(from reader: inout WireReader) throws(WireError) {
        header = try ManagementHeader(from: &reader)
        body = try ManagementFrameBody(from: &reader, frameControl: header.frameControl)
    }

    public func write(to writer: inout WireWriter) {
        header.write(to: &writer)
        body.write(to: &writer)
    }

    /// A short name, with the management subtype for frames that are not NAN
    /// ("Beacon (not NAN)", "Probe Request (not NAN)").
    public var summary: String {
        switch body {
        case .otherManagement, .otherAction:
            let subtype = header.frameControl.managementSubtype?.name ?? "Management"
            return "\(body.summary == "Management" ? subtype : body.summary) (not NAN)"
        case .protected:
            return "Protected \(header.frameControl.managementSubtype?.name ?? "Management") (encrypted)"
        default:
            return body.summary
        }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("header", "MAC Header", .fields(header.decodedFields)),
            DecodedField("frameKind", "Frame", .text(summary)),
            DecodedField("isNAN", "NAN Frame", .flag(body.isNAN)),
            DecodedField("body", "Frame Body", .fields(body.decodedFields)),
        ]
    }
}

/// The MAC header of a management frame (IEEE 802.11-2020 9.3.3.2): Frame Control,
/// Duration (LE16), A1, A2, A3, Sequence Control — 24 octets — followed by a 4-octet HT
/// Control field only when the +HTC/Order bit is set.
///
/// A1 is the receiver/destination, A2 the transmitter (own NMI), A3 the BSSID slot, which
/// NAN fills with the Cluster ID or the NAN Network ID (nan-wire-reference.md 1.3).
public struct ManagementHeader: Hashable, Sendable, WireCodable, WireDescribable {
    public var frameControl: FrameControl
    /// Duration/ID in microseconds (0 in every hostap frame; a driver fills it in).
    public var duration: UInt16
    public var address1: MACAddress
    public var address2: MACAddress
    public var address3: MACAddress
    public var sequenceControl: SequenceControl
    /// Present exactly when `frameControl.htcOrder` is set.
    public var htControl: UInt32?

    /// Octets of the header without HT Control.
    public static let length = 24

    public init(
        frameControl: FrameControl,
        duration: UInt16 = 0,
        address1: MACAddress,
        address2: MACAddress,
        address3: MACAddress,
        sequenceControl: SequenceControl = SequenceControl(rawValue: 0),
        htControl: UInt32? = nil
    ) {
        self.frameControl = frameControl
        self.duration = duration
        self.address1 = address1
        self.address2 = address2
        self.address3 = address3
        self.sequenceControl = sequenceControl
        self.htControl = htControl
    }

    /// Receiver address (A1).
    public var receiver: MACAddress { address1 }
    /// Transmitter address (A2).
    public var transmitter: MACAddress { address2 }

    public init(from reader: inout WireReader) throws(WireError) {
        frameControl = try FrameControl(from: &reader)
        duration = try reader.readUInt16LE("Duration")
        address1 = try reader.readMAC("Address 1")
        address2 = try reader.readMAC("Address 2")
        address3 = try reader.readMAC("Address 3")
        sequenceControl = try SequenceControl(from: &reader)
        htControl = frameControl.htcOrder ? try reader.readUInt32LE("HT Control") : nil
    }

    public func write(to writer: inout WireWriter) {
        frameControl.write(to: &writer)
        writer.writeUInt16LE(duration)
        writer.write(address1)
        writer.write(address2)
        writer.write(address3)
        sequenceControl.write(to: &writer)
        if let htControl { writer.writeUInt32LE(htControl) }
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("frameControl", "Frame Control", .fields(frameControl.decodedFields)),
            DecodedField("duration", "Duration", .unsigned(UInt64(duration))),
            DecodedField("address1", "Receiver Address (A1)", .address(address1)),
            DecodedField("address2", "Transmitter Address (A2)", .address(address2)),
            DecodedField("address3", "BSSID / Cluster ID (A3)", .address(address3)),
            DecodedField("sequenceControl", "Sequence Control", .fields(sequenceControl.decodedFields)),
        ]
        if let htControl {
            fields.append(DecodedField("htControl", "HT Control", .bits(UInt64(htControl), digits: 8)))
        }
        return fields
    }
}

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

import AwareCore

/// The body of a NAN Beacon (nan-wire-reference.md 1.4): `Timestamp (8, LE, µs) |
/// Beacon Interval (2, LE) | Capability (2, LE) | elements`, with the NAN element
/// `DD len 50 6F 9A 13 <attributes>` among the elements.
public struct NANBeacon: Hashable, Sendable, WireCodable, WireDescribable {
    public static let structureName = "NAN Beacon"
    /// Beacon Interval of a Sync Beacon, sent in DWs.
    public static let syncBeaconInterval: UInt16 = 512
    /// Beacon Interval of a Discovery Beacon.
    public static let discoveryBeaconInterval: UInt16 = 100

    /// The synchronized NAN TSF in microseconds.
    public var timestamp: UInt64
    /// 512 (Sync) or 100 (Discovery); any other value is kept.
    public var beaconInterval: UInt16
    /// OpenNAN sends 0x0420 (1.4; the value peers require is an open question, 7.6).
    public var capability: UInt16
    /// The NAN element and every other element, in order; only the NAN element is typed.
    public var elements: [FrameElement]

    public init(timestamp: UInt64, beaconInterval: UInt16, capability: UInt16 = 0x0420, elements: [FrameElement]) {
        self.timestamp = timestamp
        self.beaconInterval = beaconInterval
        self.capability = capability
        self.elements = elements
    }

    /// The attributes of the first NAN element.
    public var attributes: [NANAttribute] {
        for case .nan(let element) in elements { return element.attributes }
        return []
    }

    /// Whether the elements include a NAN element; a beacon without one is not a NAN Beacon.
    public var hasNANElement: Bool {
        elements.contains { if case .nan = $0 { true } else { false } }
    }

    /// [wireshark] tells Sync from Discovery Beacons by the interval alone (1.4).
    public var beaconTypeName: String {
        switch beaconInterval {
        case Self.syncBeaconInterval: "Sync Beacon"
        case Self.discoveryBeaconInterval: "Discovery Beacon"
        default: "Unknown"
        }
    }

    public init(from reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        timestamp = try reader.readUInt64LE("Timestamp")
        beaconInterval = try reader.readUInt16LE("Beacon Interval")
        capability = try reader.readUInt16LE("Capability")
        elements = try FrameElement.readList(from: &reader, context: .beacon)
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt64LE(timestamp)
        writer.writeUInt16LE(beaconInterval)
        writer.writeUInt16LE(capability)
        FrameElement.writeList(elements, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("timestamp", "Timestamp (µs)", .unsigned(timestamp)),
            DecodedField("beaconInterval", "Beacon Interval", .named(UInt64(beaconInterval), beaconTypeName)),
            DecodedField("capability", "Capability", .bits(UInt64(capability), digits: 4)),
            DecodedField("elements", "Elements", .list(elements.map { .fields($0.decodedFields) })),
        ]
    }
}

/// The QoS Control field of a QoS Data frame (IEEE 802.11-2020 9.2.4.5), two octets,
/// little-endian: TID (b0-b3), EOSP (b4), Ack Policy (b5-b6), A-MSDU Present (b7), and an
/// upper octet (b8-b15) whose meaning depends on who sends the frame (TXOP Limit, TXOP
/// Duration Requested, Queue Size, AP PS Buffer State or Mesh Control bits).
///
/// Kept as the raw 16-bit value so the upper octet and every bit survive a round trip.
public struct QoSControl: Hashable, Sendable, WireCodable, WireDescribable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The Ack Policy sub-field (b5-b6; IEEE 802.11-2020 Table 9-11, for a frame that is not
    /// part of an A-MPDU).
    public enum AckPolicy: UInt8, Hashable, Sendable, CaseIterable {
        case normalAck = 0
        case noAck = 1
        case noExplicitAck = 2
        case blockAck = 3

        public var name: String {
            switch self {
            case .normalAck: "Normal Ack"
            case .noAck: "No Ack"
            case .noExplicitAck: "No Explicit Ack / PSMP Ack"
            case .blockAck: "Block Ack"
            }
        }
    }

    /// A QoS Control for `tid` (its low 4 bits), with the other sub-fields given and the
    /// upper octet zero.
    public init(tid: UInt8, ackPolicy: AckPolicy = .normalAck, eosp: Bool = false, amsduPresent: Bool = false) {
        rawValue =
            UInt16(tid & 0x0F) | (eosp ? 0x0010 : 0) | UInt16(ackPolicy.rawValue) << 5
            | (amsduPresent ? 0x0080 : 0)
    }

    /// The traffic identifier: for EDCA traffic, the 802.1D user priority 0-7.
    public var tid: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x000F) }
    /// End Of Service Period (b4).
    public var eosp: Bool { rawValue & 0x0010 != 0 }
    public var ackPolicy: AckPolicy {
        AckPolicy(rawValue: UInt8(truncatingIfNeeded: (rawValue >> 5) & 0x03)) ?? .normalAck
    }
    /// A-MSDU Present (b7): the body is an A-MSDU rather than one MSDU.
    public var amsduPresent: Bool { rawValue & 0x0080 != 0 }
    /// b8-b15, kept as sent.
    public var upperOctet: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }

    public init(from reader: inout WireReader) throws(WireError) {
        rawValue = try reader.readUInt16LE("QoS Control")
    }

    public func write(to writer: inout WireWriter) { writer.writeUInt16LE(rawValue) }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("qosControl", "QoS Control", .bits(UInt64(rawValue), digits: 4)),
            DecodedField("tid", "TID", .unsigned(UInt64(tid))),
            DecodedField("eosp", "EOSP", .flag(eosp)),
            DecodedField("ackPolicy", "Ack Policy", .named(UInt64(ackPolicy.rawValue), ackPolicy.name)),
            DecodedField("amsduPresent", "A-MSDU Present", .flag(amsduPresent)),
            DecodedField("upperOctet", "TXOP Limit / Queue Size (b8-b15)", .unsigned(UInt64(upperOctet))),
        ]
    }
}

import AwareCore

/// The 8-octet LLC/SNAP header in front of every MSDU an 802.11 data frame carries
/// (IEEE 802.2 LLC with DSAP = SSAP = 0xAA, Control 0x03 UI; IEEE 802 SNAP: a 3-octet
/// Organization Code, then the EtherType, big-endian; RFC 1042 encapsulation uses
/// Organization Code 00-00-00).
///
/// DSAP, SSAP and Control must be the SNAP values; the Organization Code is kept as sent
/// (00-00-00 for RFC 1042, 00-00-F8 for 802.1H bridge tunnel) so any header that parses
/// writes back byte-exact.
public struct LLCSNAPHeader: Hashable, Sendable, WireCodable, WireDescribable {
    public static let structureName = "LLC/SNAP header"
    public static let length = 8
    /// DSAP and SSAP of SNAP (0xAA).
    public static let snapSAP: UInt8 = 0xAA
    /// Unnumbered Information.
    public static let unnumberedInformation: UInt8 = 0x03
    /// EtherType of IPv6 (IEEE 802 EtherType registry; RFC 8200).
    public static let etherTypeIPv6: UInt16 = 0x86DD

    /// The 3-octet Organization Code.
    public var organizationCode: [UInt8]
    public var etherType: UInt16

    /// RFC 1042 encapsulation of `etherType`: AA AA 03 00 00 00 + EtherType.
    public init(etherType: UInt16) {
        organizationCode = [0, 0, 0]
        self.etherType = etherType
    }

    /// nil unless `organizationCode` is three octets.
    public init?(organizationCode: [UInt8], etherType: UInt16) {
        guard organizationCode.count == 3 else { return nil }
        self.organizationCode = organizationCode
        self.etherType = etherType
    }

    /// The header of an IPv6 packet.
    public static let ipv6 = LLCSNAPHeader(etherType: etherTypeIPv6)

    public init(from reader: inout WireReader) throws(WireError) {
        for field in ["DSAP", "SSAP"] {
            let offset = reader.offset
            let value = try reader.readUInt8(field)
            guard value == Self.snapSAP else {
                throw reader.error(
                    .invalidValue("\(field) 0x\(HexString.byte(value)) is not SNAP (0xaa)"),
                    field: field,
                    at: offset
                )
            }
        }
        let controlOffset = reader.offset
        let control = try reader.readUInt8("Control")
        guard control == Self.unnumberedInformation else {
            throw reader.error(
                .invalidValue("Control 0x\(HexString.byte(control)) is not Unnumbered Information (0x03)"),
                field: "Control",
                at: controlOffset
            )
        }
        organizationCode = try reader.readBytes(3, "Organization Code")
        etherType = try reader.readUInt16BE("EtherType")
    }

    public func write(to writer: inout WireWriter) {
        writer.write([Self.snapSAP, Self.snapSAP, Self.unnumberedInformation])
        writer.write(organizationCode)
        writer.writeUInt16BE(etherType)
    }

    public var decodedFields: [DecodedField] {
        let etherTypeValue: DecodedValue =
            etherType == Self.etherTypeIPv6 ? .named(UInt64(etherType), "IPv6") : .bits(UInt64(etherType), digits: 4)
        return [
            DecodedField("dsap", "DSAP", .bits(UInt64(Self.snapSAP), digits: 2)),
            DecodedField("ssap", "SSAP", .bits(UInt64(Self.snapSAP), digits: 2)),
            DecodedField("control", "Control", .bits(UInt64(Self.unnumberedInformation), digits: 2)),
            DecodedField("organizationCode", "Organization Code", .bytes(organizationCode)),
            DecodedField("etherType", "EtherType", etherTypeValue),
        ]
    }
}

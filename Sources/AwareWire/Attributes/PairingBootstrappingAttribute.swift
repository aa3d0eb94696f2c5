/// NAN Pairing Bootstrapping attribute (NPBA, 0x2C; nan-wire-reference.md 2.18).
///
/// ```
/// Dialog Token (1)             0 (reserved) in Advertise
/// Type and Status (1)          b0-3 Type, b4-7 Status
/// Reason Code (1)              meaningful in a rejected Response (hostap: 13)
/// [Comeback field]             only when Status = Comeback:
///     [Comeback After (2, LE, TU)]   only in a Response
///     Cookie Length (1) | Cookie
/// Pairing Bootstrapping Method bitmap (2, LE)
/// ```
///
/// Status and Type decide what is written: ``comebackAfter`` only for a Response with status
/// Comeback (0 when nil), ``cookie`` whenever status is Comeback (empty when nil). Outside those
/// cases the two fields are ignored on write and nil after a parse.
public struct PairingBootstrappingAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.pairingBootstrapping

    public var dialogToken: UInt8
    public var type: PairingBootstrappingType
    public var status: PairingBootstrappingStatus
    public var reasonCode: UInt8
    /// Time units (1024 µs) before the requester should retry.
    public var comebackAfter: UInt16?
    public var cookie: [UInt8]?
    /// Reserved (0) in a Response whose status is not Accepted.
    public var methods: BootstrappingMethods

    public init(
        dialogToken: UInt8,
        type: PairingBootstrappingType,
        status: PairingBootstrappingStatus,
        reasonCode: UInt8 = 0,
        comebackAfter: UInt16? = nil,
        cookie: [UInt8]? = nil,
        methods: BootstrappingMethods
    ) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
        self.comebackAfter = comebackAfter
        self.cookie = cookie
        self.methods = methods
    }

    /// The Type and Status octet.
    public var typeAndStatus: UInt8 { type.rawValue | status.rawValue << 4 }

    private var hasComebackField: Bool { status == .comeback }
    private var hasComebackAfter: Bool { status == .comeback && type == .response }

    public init(from reader: inout WireReader) throws(WireError) {
        dialogToken = try reader.readUInt8("Dialog Token")
        let typeAndStatus = try reader.readUInt8("Type and Status")
        type = PairingBootstrappingType(nibble: typeAndStatus)
        status = PairingBootstrappingStatus(nibble: typeAndStatus >> 4)
        reasonCode = try reader.readUInt8("Reason Code")
        comebackAfter = nil
        cookie = nil
        if status == .comeback {
            if type == .response {
                comebackAfter = try reader.readUInt16LE("Comeback After")
            }
            let cookieLength = Int(try reader.readUInt8("Cookie Length"))
            cookie = try reader.readBytes(cookieLength, "Cookie")
        }
        methods = BootstrappingMethods(rawValue: try reader.readUInt16LE("Pairing Bootstrapping Method"))
    }

    /// A cookie over 255 octets is a programming error of the caller.
    public func write(to writer: inout WireWriter) {
        writer.write(dialogToken)
        writer.write(typeAndStatus)
        writer.write(reasonCode)
        if hasComebackAfter { writer.writeUInt16LE(comebackAfter ?? 0) }
        if hasComebackField { writer.withLength8 { $0.write(cookie ?? []) } }
        writer.writeUInt16LE(methods.rawValue)
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("dialogToken", "Dialog Token", .unsigned(UInt64(dialogToken))),
            DecodedField("typeAndStatus", "Type and Status", .bits(UInt64(typeAndStatus), digits: 2)),
            DecodedField("type", "Type", .named(UInt64(type.rawValue), type.name)),
            DecodedField("status", "Status", .named(UInt64(status.rawValue), status.name)),
            DecodedField("reasonCode", "Reason Code", .unsigned(UInt64(reasonCode))),
        ]
        if hasComebackAfter {
            fields.append(DecodedField("comebackAfter", "Comeback After (TU)", .unsigned(UInt64(comebackAfter ?? 0))))
        }
        if hasComebackField {
            fields.append(DecodedField("cookie", "Cookie", .bytes(cookie ?? [])))
        }
        fields.append(
            DecodedField(
                "pairingBootstrappingMethods",
                "Pairing Bootstrapping Methods",
                .bits(UInt64(methods.rawValue), digits: 4)
            )
        )
        fields.append(contentsOf: methods.decodedFlags)
        return fields
    }
}

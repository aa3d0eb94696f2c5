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

/// NPBA Type: bits 0-3 of Type and Status (nan-wire-reference.md 2.18). Values 3-15 are
/// reserved and kept as ``reserved(_:)`` so that any octet round-trips.
public enum PairingBootstrappingType: Hashable, Sendable {
    case advertise
    case request
    case response
    case reserved(UInt8)

    /// The type in the low four bits of `nibble`.
    public init(nibble: UInt8) {
        switch nibble & 0x0F {
        case 0: self = .advertise
        case 1: self = .request
        case 2: self = .response
        case let other: self = .reserved(other)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .advertise: 0
        case .request: 1
        case .response: 2
        case .reserved(let value): value & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .advertise: "Advertise"
        case .request: "Request"
        case .response: "Response"
        case .reserved: "Reserved"
        }
    }
}

/// NPBA Status: bits 4-7 of Type and Status (nan-wire-reference.md 2.18). Values 3-15 are
/// reserved and kept as ``reserved(_:)`` so that any octet round-trips.
public enum PairingBootstrappingStatus: Hashable, Sendable {
    case accepted
    case rejected
    /// The responder needs time (for example to show a PIN): the Comeback field follows.
    case comeback
    case reserved(UInt8)

    /// The status in the low four bits of `nibble`.
    public init(nibble: UInt8) {
        switch nibble & 0x0F {
        case 0: self = .accepted
        case 1: self = .rejected
        case 2: self = .comeback
        case let other: self = .reserved(other)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .accepted: 0
        case .rejected: 1
        case .comeback: 2
        case .reserved(let value): value & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .accepted: "Accepted"
        case .rejected: "Rejected"
        case .comeback: "Comeback"
        case .reserved: "Reserved"
        }
    }
}

/// The NPBA Pairing Bootstrapping Method bitmap (2 octets, LE; nan-wire-reference.md 2.18, hostap
/// `enum nan_pairing_bootstrapping_method`, Android `AwarePairingConfig`, ESP-IDF
/// `WIFI_NAN_BOOTSTRAP_*`). All 16 bits are named, reserved ones included.
public struct BootstrappingMethods: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let opportunistic = Self(rawValue: 1 << 0)
    public static let pinCodeDisplay = Self(rawValue: 1 << 1)
    public static let passphraseDisplay = Self(rawValue: 1 << 2)
    public static let qrCodeDisplay = Self(rawValue: 1 << 3)
    public static let nfcTag = Self(rawValue: 1 << 4)
    public static let pinCodeKeypad = Self(rawValue: 1 << 5)
    public static let passphraseKeypad = Self(rawValue: 1 << 6)
    public static let qrCodeScan = Self(rawValue: 1 << 7)
    public static let nfcReader = Self(rawValue: 1 << 8)
    public static let reservedBit9 = Self(rawValue: 1 << 9)
    public static let reservedBit10 = Self(rawValue: 1 << 10)
    public static let reservedBit11 = Self(rawValue: 1 << 11)
    public static let reservedBit12 = Self(rawValue: 1 << 12)
    public static let reservedBit13 = Self(rawValue: 1 << 13)
    public static let serviceManaged = Self(rawValue: 1 << 14)
    public static let handshakesSkipped = Self(rawValue: 1 << 15)

    /// Bits 9-13.
    public static let reserved = Self(rawValue: 0x3E00)

    /// Every bit with its JSON key and its name in the reference's table, in bit order.
    public static let named: [(method: BootstrappingMethods, key: String, name: String)] = [
        (.opportunistic, "opportunistic", "Opportunistic bootstrapping"),
        (.pinCodeDisplay, "pinCodeDisplay", "PIN code (display)"),
        (.passphraseDisplay, "passphraseDisplay", "Passphrase (display)"),
        (.qrCodeDisplay, "qrCodeDisplay", "QR code (display)"),
        (.nfcTag, "nfcTag", "NFC tag"),
        (.pinCodeKeypad, "pinCodeKeypad", "PIN code only (keypad)"),
        (.passphraseKeypad, "passphraseKeypad", "Passphrase (keypad)"),
        (.qrCodeScan, "qrCodeScan", "QR code (scan)"),
        (.nfcReader, "nfcReader", "NFC reader"),
        (.reservedBit9, "reservedBit9", "Reserved (bit 9)"),
        (.reservedBit10, "reservedBit10", "Reserved (bit 10)"),
        (.reservedBit11, "reservedBit11", "Reserved (bit 11)"),
        (.reservedBit12, "reservedBit12", "Reserved (bit 12)"),
        (.reservedBit13, "reservedBit13", "Reserved (bit 13)"),
        (.serviceManaged, "serviceManaged", "Service managed bootstrapping"),
        (.handshakesSkipped, "handshakesSkipped", "Bootstrapping handshakes skipped"),
    ]

    /// The methods the peer must use to pair with a device that offers these: each "display"
    /// method maps to its "keypad"/"scan" counterpart and back (PIN display <-> PIN keypad,
    /// passphrase display <-> passphrase keypad, QR display <-> QR scan, NFC tag <-> NFC reader),
    /// as in hostap's test (publisher 0x0004, subscriber 0x0040; 3.1). Opportunistic, service
    /// managed, handshakes skipped and the reserved bits need no counterpart and map to themselves,
    /// so `complement` is its own inverse.
    public var complement: BootstrappingMethods {
        let pairs: [(BootstrappingMethods, BootstrappingMethods)] = [
            (.pinCodeDisplay, .pinCodeKeypad),
            (.passphraseDisplay, .passphraseKeypad),
            (.qrCodeDisplay, .qrCodeScan),
            (.nfcTag, .nfcReader),
        ]
        var result = self
        for (display, input) in pairs {
            result.remove(display)
            result.remove(input)
            if contains(display) { result.insert(input) }
            if contains(input) { result.insert(display) }
        }
        return result
    }

    /// One `.flag` per bit, for ``DecodedField`` lists.
    public var decodedFlags: [DecodedField] {
        Self.named.map { DecodedField($0.key, $0.name, .flag(contains($0.method))) }
    }
}

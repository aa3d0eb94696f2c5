import AwareCore
import AwareWire

/// One datagram on a socket air: a fixed 34-octet header, then the 802.11 frame (from Frame
/// Control on, no FCS) or nothing. All integers little-endian. docs/reference/socket-air.md holds the
/// layout table; this type is its executable form.
///
/// ```
/// 0  magic "AWB1"     4   12 timestamp (Unix ns)  8
/// 4  version = 1      1   20 cookie               8
/// 5  message type     1   28 address (MAC)        6
/// 6  flags            2   34 payload              ...
/// 8  frequency (MHz)  2
/// 10 signal (dBm, s8) 1
/// 11 reserved         1
/// ```
///
/// Flags and the reserved octet are kept as read, so decode → encode is byte-exact.
public struct SocketAirDatagram: Hashable, Sendable {
    public static let magic: [UInt8] = [0x41, 0x57, 0x42, 0x31]
    public static let currentVersion: UInt8 = 1
    public static let headerLength = 34

    /// Frame flag: `signalDBm` is a received signal strength chosen by a program that plays
    /// the medium, to be reported as the RSSI, instead of the transmitter's power.
    public static let flagSignalIsRSSI: UInt16 = 0x0001
    /// TX-status flag: the frame was acknowledged (clear: explicitly not acknowledged).
    public static let flagAcknowledged: UInt16 = 0x0001
    /// Frame and TX-status flag on a lockstep air: the timestamp is the virtual time (ns) at
    /// which the datagram takes effect at its receivers (docs/reference/socket-air.md, "Lockstep").
    public static let flagVirtualTime: UInt16 = 0x0100

    public var type: SocketAirMessageType
    public var flags: UInt16
    /// The channel's centre frequency; 0 for events.
    public var frequencyMHz: UInt16
    /// Frame: TX power (or RSSI with ``flagSignalIsRSSI``). TX status: 0.
    public var signalDBm: Int8
    /// Zero when sent; kept as read.
    public var reserved: UInt8
    /// CLOCK_REALTIME at sending, in nanoseconds since the Unix epoch: the one clock all
    /// processes on a machine share. Informational; receivers stamp arrival themselves.
    public var timestamp: UInt64
    /// Frame: the transmitter's token for this transmission. TX status: the token of the
    /// frame acknowledged. Opaque to everyone but the transmitter.
    public var cookie: UInt64
    /// Frame: the transmitter's address (A2). TX status: the acknowledging station's
    /// address (A1 of the frame).
    public var address: MACAddress
    /// Frame: the 802.11 frame. Event: UTF-8 JSON. TX status: empty.
    public var payload: [UInt8]

    public init(
        type: SocketAirMessageType,
        flags: UInt16 = 0,
        frequencyMHz: UInt16,
        signalDBm: Int8,
        reserved: UInt8 = 0,
        timestamp: UInt64,
        cookie: UInt64,
        address: MACAddress,
        payload: [UInt8] = []
    ) {
        self.type = type
        self.flags = flags
        self.frequencyMHz = frequencyMHz
        self.signalDBm = signalDBm
        self.reserved = reserved
        self.timestamp = timestamp
        self.cookie = cookie
        self.address = address
        self.payload = payload
    }

    /// Reads a datagram; fails on a short header, a wrong magic or an unknown version,
    /// which a receiver drops.
    public init(bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes, structure: "socket air datagram")
        let magic = try reader.readBytes(4, "Magic")
        guard magic == Self.magic else {
            throw reader.error(.invalidValue("magic is not \"AWB1\""), field: "Magic", at: 0)
        }
        let version = try reader.readUInt8("Version")
        guard version == Self.currentVersion else {
            throw reader.error(.invalidValue("unknown version \(version)"), field: "Version", at: 4)
        }
        type = SocketAirMessageType(rawValue: try reader.readUInt8("Message Type"))
        flags = try reader.readUInt16LE("Flags")
        frequencyMHz = try reader.readUInt16LE("Frequency")
        signalDBm = Int8(bitPattern: try reader.readUInt8("Signal"))
        reserved = try reader.readUInt8("Reserved")
        timestamp = try reader.readUInt64LE("Timestamp")
        cookie = try reader.readUInt64LE("Cookie")
        address = try reader.readMAC("Address")
        payload = reader.readRemaining()
    }

    public var bytes: [UInt8] {
        var writer = WireWriter(capacity: Self.headerLength + payload.count)
        writer.write(Self.magic)
        writer.write(Self.currentVersion)
        writer.write(type.rawValue)
        writer.writeUInt16LE(flags)
        writer.writeUInt16LE(frequencyMHz)
        writer.write(UInt8(bitPattern: signalDBm))
        writer.write(reserved)
        writer.writeUInt64LE(timestamp)
        writer.writeUInt64LE(cookie)
        writer.write(address)
        writer.write(payload)
        return writer.bytes
    }

    /// For frames: whether ``signalDBm`` is an RSSI to report rather than a TX power.
    public var signalIsRSSI: Bool { flags & Self.flagSignalIsRSSI != 0 }
    /// For TX statuses: whether the frame was acknowledged.
    public var acknowledged: Bool { flags & Self.flagAcknowledged != 0 }
    public var carriesVirtualTime: Bool { flags & Self.flagVirtualTime != 0 }
}

// MARK: - SocketAirMessageType

/// What a socket-air datagram carries (docs/reference/socket-air.md, "Message types"). An open set:
/// a receiver ignores types it does not know, so later versions can add some.
public struct SocketAirMessageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// An 802.11 frame on the air.
    public static let frame = SocketAirMessageType(rawValue: 1)
    /// The receiver's acknowledgement of a unicast frame, sent back to its transmitter.
    public static let txStatus = SocketAirMessageType(rawValue: 2)
    /// A side-channel event between programs, JSON in UTF-8 (PIN display events travel here
    /// in a later issue); no frame, not heard by radios.
    public static let event = SocketAirMessageType(rawValue: 3)
    /// Lockstep virtual time between the processes of an air (``LockstepMessage``).
    public static let clock = SocketAirMessageType(rawValue: 4)

    public var description: String {
        switch self {
        case .frame: "frame"
        case .txStatus: "TX status"
        case .event: "event"
        case .clock: "clock"
        default: "type \(rawValue)"
        }
    }
}

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

import AwareCore
import AwareWire

/// A medium that carries 802.11 frames between stations: the simulated air, the socket air
/// shared between processes, or a real radio. It carries frames and reports what a radio
/// would (channel, signal, time, acknowledgement); it never decides protocol behaviour.
public protocol Air: AnyObject {
    /// The scheduler every station on this air runs on.
    var scheduler: any EventScheduler { get }

    /// Attaches a station. `receive` is called on the scheduler for every frame the station
    /// hears; `transmitted` for the TX status of each frame it sent.
    func attach(
        _ station: StationConfiguration,
        receive: @escaping (Reception) -> Void,
        transmitted: @escaping (TxStatus) -> Void
    ) throws(AirError) -> any AirPort

    /// Adds a capture tap that sees every frame carried, as a sniffer would.
    func addTap(_ tap: any AirTap)
}

/// One station's attachment to an air.
public protocol AirPort: AnyObject {
    var station: StationConfiguration { get }

    /// The channels the receiver listens on; frames sent on other channels are not heard.
    /// A NAN device moves between channel 6 and 149 with the discovery windows.
    var listeningChannels: Set<NANChannel> { get set }

    /// Queues a frame for transmission; its ``TxStatus`` arrives through `transmitted`.
    func transmit(_ request: TxRequest)

    /// Leaves the air: nothing more is heard or sent.
    func detach()
}

/// Sees every frame an air carries.
public protocol AirTap: AnyObject {
    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant)
    /// The same, with the PHY rate the frame was sent at when its sender chose one
    /// (``TxRequest/rate``); nil means the air's default rate. Taps that do not care about
    /// rates need not implement it.
    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, rate: TxRate?, at time: Instant)
}

extension AirTap {
    public func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, rate: TxRate?, at time: Instant) {
        air(carried: frame, on: channel, signalDBm: signalDBm, at: time)
    }
}

/// A frame a station heard.
public struct Reception: Hashable, Sendable {
    public var frame: [UInt8]
    public var info: RxInfo

    public init(frame: [UInt8], info: RxInfo) {
        self.frame = frame
        self.info = info
    }
}

/// Who a station is and where it stands.
public struct StationConfiguration: Hashable, Sendable {
    /// The station's addresses: it acknowledges unicast frames sent to any of them (NMI,
    /// and NDIs once it has data interfaces).
    public var addresses: [MACAddress]
    /// Position in metres, for path loss on the simulated air.
    public var position: Position
    /// A name for logs and captures ("accessory", "phone").
    public var name: String

    public init(addresses: [MACAddress], position: Position = .origin, name: String) {
        self.addresses = addresses
        self.position = position
        self.name = name
    }

    /// A point on a plane, in metres.
    public struct Position: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
        public static let origin = Position(x: 0, y: 0)

        public func distance(to other: Position) -> Double {
            ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
        }
    }
}

/// Why a station could not join or use an air.
public enum AirError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another station on this air already uses the address.
    case addressInUse(MACAddress)
    /// The air could not be reached or set up (a socket path, a radio); the text says why
    /// and what to do.
    case unavailable(String)

    public var description: String {
        switch self {
        case .addressInUse(let address): "address \(address) is already on this air"
        case .unavailable(let reason): reason
        }
    }
}

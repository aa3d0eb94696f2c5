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

// MARK: - FrameImpairer

/// What an impairment does to one transmission of a frame.
///
/// The air asks its ``FrameImpairer`` about every transmission (retransmissions included),
/// so a test can lose, alter or hold back a chosen frame the way a bad channel or a slow
/// firmware would, and the capture shows it: a lost frame is still on the air (a sniffer next
/// to the sender hears it) but no receiver gets it and no ACK follows; an altered frame is
/// carried, and captured, with its new octets.
public enum FrameImpairment: Hashable, Sendable {
    /// Carried as sent.
    case intact
    /// No receiver gets this transmission, so a unicast frame goes unacknowledged and its
    /// sender retries as it would after any loss.
    case lost
    /// Receivers (and taps) get these octets instead.
    case altered([UInt8])
}

/// Who sent a frame the air asks about: a station attached in this process (by the name it
/// attached with), or a station in another process of a shared air.
public enum FrameOrigin: Hashable, Sendable {
    case local(name: String)
    case remote
}

/// Decides the impairments of an air's frames. Called on the air's scheduler only.
public protocol FrameImpairer: AnyObject {
    /// How long the sender holds `frame` back before it queues it (a slow firmware), or nil.
    /// Asked once per frame, when its station hands it to the air; for a frame from another
    /// process, when it arrives (it is then delivered late).
    func holdBack(_ frame: [UInt8], from origin: FrameOrigin, at time: Instant) -> Interval?

    /// What happens to one transmission of `frame`. `attempt` is 1 for the first and counts
    /// the air's retransmissions of the same frame; the frame already carries the Retry bit
    /// when the air sets one.
    func impairment(of frame: [UInt8], from origin: FrameOrigin, attempt: Int, at time: Instant) -> FrameImpairment
}

/// An air whose frames a test can impair (the simulated air; the socket air for the frames of
/// its own process's stations and the frames they receive).
public protocol ImpairableAir: Air {
    var impairer: (any FrameImpairer)? { get set }
}

// MARK: - EventScheduler

/// Runs timed work on one thread, in time order: the only place time passes.
///
/// Under virtual time (``SimulatedAir``) `now` jumps from event to event and an hour of
/// discovery costs milliseconds; under the wall clock (``SocketAir``) `now` follows a
/// monotonic clock. Everything that touches a device (its protocol machines, its port on
/// the air) runs on the scheduler's thread, so none of it needs locks.
public protocol EventScheduler: AnyObject {
    /// The current time on this scheduler's clock.
    var now: Instant { get }

    /// Runs `work` at `instant` (at once if it is in the past). Work scheduled for the same
    /// instant runs in the order it was scheduled.
    @discardableResult
    func schedule(at instant: Instant, _ work: @escaping () -> Void) -> ScheduledWork

    /// Cancels work that has not run yet; cancelling twice, or after it ran, does nothing.
    func cancel(_ work: ScheduledWork)

    /// `instant` on a clock every station of the air shares, in nanoseconds: virtual time on
    /// the simulated air, CLOCK_MONOTONIC (since boot) under the wall clock, so that processes
    /// on one machine can stamp application data and measure one-way latency.
    func sharedTimestamp(of instant: Instant) -> UInt64

    /// The inverse of ``sharedTimestamp(of:)``.
    func instant(ofSharedTimestamp timestamp: UInt64) -> Instant

    /// `instant` on the calendar: what outlives a run (when a pairing was made, how long a
    /// cached NIK stays valid) is reckoned in it. Under virtual time the calendar moves with
    /// the virtual clock from ``VirtualScheduler/calendarOrigin``; under the wall clock it is
    /// the host's clock, read once when the scheduler starts and then advanced by the
    /// monotonic clock, so a clock step on the host cannot move a lifetime or a lockout.
    func calendarTime(of instant: Instant) -> CalendarTime
}

extension EventScheduler {
    /// ``now`` on the calendar (``calendarTime(of:)``). Protocol code reads calendar time here,
    /// never from the host's clock, so lifetimes follow virtual time in a simulation.
    public var calendarNow: CalendarTime { calendarTime(of: now) }

    @discardableResult
    public func schedule(after interval: Interval, _ work: @escaping () -> Void) -> ScheduledWork {
        schedule(at: now + interval, work)
    }
}

/// A handle to scheduled work, for cancelling it.
public struct ScheduledWork: Hashable, Sendable {
    public let id: UInt64
    public init(id: UInt64) { self.id = id }
}

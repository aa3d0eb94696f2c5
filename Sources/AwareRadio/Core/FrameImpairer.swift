import AwareCore
import AwareWire

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

import AwareCore
import AwareWire

/// A PASN exchange the capture shows complete (frames 1, 2 with status 0, 3 with status 0;
/// nan-wire-reference.md 3.1, 3.4.1), and how long its keys stand: until the same two devices
/// start PASN again.
public struct CompletedPairing: Hashable, Sendable {
    /// The PASN initiator (the phone) and responder (the accessory), by NMI.
    public var initiator: MACAddress
    public var responder: MACAddress
    /// The frame number of PASN frame 3: from the next frame on the pair shares an NM-TK.
    public var completedAt: Int
    /// The frame that starts the next PASN between the two, when there is one.
    public var supersededAt: Int?
    /// That next PASN is a new setup (SAE in Wrapped Data), not a verification: the two paired
    /// from scratch, which they only do when at least one of them had lost the keys.
    public var supersededBySetup = false
    /// Verification with a cached NPK (no Wrapped Data in frame 1, 3.7) rather than setup.
    public var isVerification: Bool

    public init(
        initiator: MACAddress,
        responder: MACAddress,
        completedAt: Int,
        supersededAt: Int? = nil,
        isVerification: Bool
    ) {
        self.initiator = initiator
        self.responder = responder
        self.completedAt = completedAt
        self.supersededAt = supersededAt
        self.isVerification = isVerification
    }

    /// Whether frame `number` between `a` and `b` falls under this pairing's keys.
    public func covers(_ a: MACAddress, _ b: MACAddress, frame number: Int) -> Bool {
        let sameDevices = (a == initiator && b == responder) || (a == responder && b == initiator)
        return sameDevices && number > completedAt && supersededAt.map { number < $0 } ?? true
    }
}

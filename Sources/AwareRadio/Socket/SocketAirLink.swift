/// The link between a process on the socket air and everyone else, when that process models one
/// (an accessory told where it stands through its control channel, docs/reference/control.md). There are
/// no positions across processes, so the process that moves decides the link for both ends: it
/// reports `rssiDBm` for frames it hears and stamps `rssiDBm` on the frames it sends (flags bit
/// 0, docs/reference/socket-air.md), so the other side reports the same figure.
public struct SocketAirLink: Hashable, Sendable {
    /// The received signal strength at either end, in dBm.
    public var rssiDBm: Int
    /// False below the receiver's sensitivity: frames neither leave nor arrive, and unicast
    /// frames end unacknowledged after the acknowledgement timeout, as they would out of range.
    public var inRange: Bool

    public init(rssiDBm: Int, inRange: Bool) {
        self.rssiDBm = rssiDBm
        self.inRange = inRange
    }
}

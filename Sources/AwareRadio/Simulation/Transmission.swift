import AwareCore
import AwareWire

/// One frame on the air, from its first octet to its last.
final class Transmission {
    let sender: Int
    let frame: [UInt8]
    let medium: Int
    let start: UInt64
    let end: UInt64
    let powerDBm: Int
    /// The station whose address is A1, for a unicast frame (nil when group-addressed or
    /// nobody on the air has it).
    let intended: Int?
    let isGroupAddressed: Bool
    /// The rate of the ACK that answers it (a unicast frame's control response rate).
    let ackRate: OFDMRate
    /// The ACK's rate for taps: nil when the frame went at the air's default rate, so the
    /// tap reports its own default as before.
    var ackTxRate: TxRate?
    /// Stations that hear the frame above their sensitivity, in station order.
    var receivers: [Int] = []
    var signals: [Double] = []
    var outcomes: [Outcome] = []
    var collided = false

    enum Outcome: UInt8 {
        case intact
        case collided
        /// The receiver transmitted, or tuned away from the channel, while the frame was on the air.
        case missed
        /// A test's ``FrameImpairer`` lost this transmission.
        case impaired
    }

    init(
        sender: Int,
        frame: [UInt8],
        medium: Int,
        start: UInt64,
        end: UInt64,
        powerDBm: Int,
        intended: Int?,
        isGroupAddressed: Bool,
        ackRate: OFDMRate
    ) {
        self.sender = sender
        self.frame = frame
        self.medium = medium
        self.start = start
        self.end = end
        self.powerDBm = powerDBm
        self.intended = intended
        self.isGroupAddressed = isGroupAddressed
        self.ackRate = ackRate
    }

    /// Where `station` is in ``receivers``, by binary search.
    func receiverPosition(_ station: Int) -> Int? {
        var low = 0
        var high = receivers.count
        while low < high {
            let middle = (low + high) / 2
            if receivers[middle] < station { low = middle + 1 } else { high = middle }
        }
        return low < receivers.count && receivers[low] == station ? low : nil
    }
}

import AwareCore
import AwareWire

/// What the harness saw of each peer's PASN exchange with the accessory, from the frames
/// themselves: frame 1 from the peer, then the accessory's successful frame 2 to it, then
/// frame 3 from the peer. A pairing (or verification) the accessory completes without that
/// order on the air was established without a PASN exchange, whatever its keys say.
struct PASNLedger {
    enum Stage: Int, Comparable {
        case none, frame1Received, frame2Sent, frame3Received
        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let accessory: MACAddress
    private(set) var stages: [MACAddress: Stage] = [:]

    init(accessory: MACAddress) { self.accessory = accessory }

    /// A frame the input delivers to the accessory.
    mutating func received(_ bytes: [UInt8]) {
        guard let (header, pasn) = Self.pasn(bytes), header.address1 == accessory else { return }
        let peer = header.address2
        switch pasn.transactionSequence {
        case 1: stages[peer] = .frame1Received
        case 3 where stages[peer] == .frame2Sent: stages[peer] = .frame3Received
        default: break
        }
    }

    /// A frame the accessory sends.
    mutating func sent(_ bytes: [UInt8]) {
        guard let (header, pasn) = Self.pasn(bytes), header.address2 == accessory else { return }
        let peer = header.address1
        if pasn.transactionSequence == 2, pasn.statusCode == 0, stages[peer] == .frame1Received {
            stages[peer] = .frame2Sent
        }
    }

    func exchangeCompleted(with peer: MACAddress) -> Bool { stages[peer] == .frame3Received }

    private static func pasn(_ bytes: [UInt8]) -> (ManagementHeader, PASNAuthenticationFrame)? {
        // Frame Control first: the accessory sends beacons and publishes many times a second,
        // and decoding each of them only to find it is not an Authentication frame would cost
        // the target most of its executions.
        guard bytes.count >= 24, bytes[0] == 0xB0 else { return nil }
        guard case .management(let frame)? = try? IEEE80211Frame(bytes: bytes),
            case .pasnAuthentication(let pasn) = frame.body
        else { return nil }
        return (frame.header, pasn)
    }
}

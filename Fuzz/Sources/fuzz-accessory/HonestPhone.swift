import AwareCore
import AwareProtocol
import AwareWire
import FuzzSupport

/// A phone that runs PASN honestly with the PIN the accessory showed it: the way past SAE,
/// which fuzz input alone cannot take (its confirm is over the accessory's own commit). With
/// it the accessory target reaches completed pairings and what follows them: the NIK
/// exchange, protected frames from a paired peer (which the input's frames then fail to be),
/// and data paths that need the pairing's keys.
struct HonestPhone {
    let address: MACAddress
    private var initiator: PASNInitiator
    private var rng = SeededGenerator(seed: 0x50_484F_4E45)

    /// The cluster ID the hostap session used as Address 3.
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)

    init(address: MACAddress, accessory: MACAddress, pin: String) {
        self.address = address
        initiator = PASNInitiator(
            configuration: PASNConfiguration(
                ownAddress: address,
                peerAddress: accessory,
                address3: Self.clusterID,
                suite: .ncsPKPASN128,
                // What the session's phone put in its frame 1 (CSIA, DCEA, NPBA ...).
                nanAttributes: SessionFrames.pasnNANAttributes(ofFrame: 14)
            ),
            credential: .password(Array(pin.utf8))
        )
    }

    /// PASN frame 1.
    mutating func start(now: Instant) -> [UInt8]? {
        transmitted(initiator.handle(.start(nil), now: now, rng: &rng))
    }

    /// Frame 3 (or an abort) in answer to the accessory's `frame`, when the initiator sends one.
    mutating func answer(_ frame: [UInt8], now: Instant) -> [UInt8]? {
        guard let received = ReceivedFrame(bytes: frame, info: RxInfo(channel: .channel6, rssiDBm: -45, timestamp: now))
        else { return nil }
        return transmitted(initiator.handle(.received(received), now: now, rng: &rng))
    }

    private func transmitted(_ actions: [PASNAction]) -> [UInt8]? {
        for case .transmit(let request) in actions { return request.frame }
        return nil
    }
}

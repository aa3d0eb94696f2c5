import AwareWire
import FuzzSupport

/// Seeds from the phone's side of the hostap session (Fixtures/hostap-session-A).
///
/// Replayed as recorded, the session stops at the bootstrapping comeback: the accessory
/// hands out a cookie of its own and refuses the session's. Its cookie is a function of the
/// input (the accessory's randomness is seeded), so the deep seed is built the way a phone
/// would: replay up to the comeback response, read the cookie from it, and send the
/// session's comeback request with that cookie. The PIN is the session's, so PASN frame 1
/// then carries a valid SAE commit and the exchange reaches frame 3.
enum SessionSeeds {
    /// Frame number in the session and the pause before it (FrameSequence: 2 ms units, 5 s
    /// from 0xF0): subscribe, bootstrapping request, the comeback after 1024 TU, PASN 1 and
    /// 3, the NIK follow-up, NDP request and confirm, and the reconnect's verification.
    static let phone: [(frame: Int, pause: UInt8)] = [
        (2, 50), (4, 15), (12, 0xF0), (14, 15), (16, 10), (17, 10), (22, 30), (24, 10), (33, 0xF0), (35, 15),
        (37, 10),
    ]

    /// The session with the accessory's cookie, PASN frames 1 and 3 replaced by the honest
    /// phone's pairing: the accessory pairs, and the session's later frames arrive unprotected
    /// from a paired phone.
    static func honestRecords(setup: UInt8) -> [FrameSequence.Record] {
        var records = records(cookieFrom: setup)
        records[3] = FrameSequence.Record(pause: 15, flags: 0x02, frame: [])
        records.remove(at: 4)
        return records
    }

    static func records(cookieFrom setup: UInt8?) -> [FrameSequence.Record] {
        var records = phone.map { FrameSequence.Record(pause: $0.pause, frame: SessionFrames.frame($0.frame)) }
        guard let setup, let cookie = accessoryCookie(setup: setup, prefix: Array(records.prefix(2))),
            let comeback = replacingCookie(in: records[2].frame, with: cookie)
        else { return records }
        records[2].frame = comeback
        return records
    }

    /// The cookie of the accessory's comeback response to `prefix`.
    private static func accessoryCookie(setup: UInt8, prefix: [FrameSequence.Record]) -> [UInt8]? {
        let harness = AccessoryHarness(setup: setup)
        harness.keepsSentFrames = true
        harness.run(FrameSequence(setup: setup, records: prefix))
        for frame in harness.sentFrames {
            for attribute in attributes(frame) {
                if case .pairingBootstrapping(let npba) = attribute, let cookie = npba.cookie { return cookie }
            }
        }
        return nil
    }

    private static func attributes(_ bytes: [UInt8]) -> [NANAttribute] {
        guard case .management(let frame)? = try? IEEE80211Frame(bytes: bytes),
            case .serviceDiscovery(let sdf) = frame.body
        else { return [] }
        return sdf.attributes
    }

    private static func replacingCookie(in bytes: [UInt8], with cookie: [UInt8]) -> [UInt8]? {
        guard case .management(var frame)? = try? IEEE80211Frame(bytes: bytes),
            case .serviceDiscovery(var sdf) = frame.body
        else { return nil }
        sdf.attributes = sdf.attributes.map { attribute in
            guard case .pairingBootstrapping(var npba) = attribute else { return attribute }
            npba.cookie = cookie
            return .pairingBootstrapping(npba)
        }
        frame.body = .serviceDiscovery(sdf)
        return IEEE80211Frame.management(frame).wireBytes
    }
}

import AwareWire

/// The 37 frames of the hostap session capture (Fixtures/hostap-session-A), in send order:
/// real frames from another implementation, the best seeds there are.
public enum SessionFrames {
    public static let path = "Fixtures/hostap-session-A/session.pcap"

    public static var frames: [[UInt8]] {
        do {
            return try CaptureReader.read(bytes: RepositoryFile.required(path)).map(\.frame)
        } catch {
            fuzzFailure("\(path) does not read: \(error)")
        }
    }

    /// Frame `number` as the session README counts them (from 1).
    public static func frame(_ number: Int) -> [UInt8] { frames[number - 1] }
}

extension SessionFrames {
    /// The attributes in the NAN element of PASN frame `number`: what that side of the
    /// session was configured to send (14 and 35 the phone, 15 and 36 the accessory).
    public static func pasnNANAttributes(ofFrame number: Int) -> [NANAttribute] {
        guard case .management(let frame)? = try? IEEE80211Frame(bytes: frame(number)),
            case .pasnAuthentication(let pasn) = frame.body, let nan = pasn.nanElement
        else { fuzzFailure("session frame \(number) has no NAN element") }
        return nan.attributes
    }
}

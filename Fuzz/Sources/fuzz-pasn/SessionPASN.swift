import AwareCore
import AwareProtocol
import AwareWire
import Foundation
import FuzzSupport

/// hostap session A's pairing as PASN machine inputs (Fixtures/hostap-session-A): the PIN,
/// both sides' configurations and recorded random values, and the keys the exchange gave.
/// With these, the initiator completes on the session's frame 2 and the responder on frames
/// 1 and 3, so the fuzzer starts from complete exchanges.
enum SessionPASN {
    static let phone = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let accessory = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
    static let pin = Array("482915".utf8)

    /// The transcript, read again by each of the few values below (each read once).
    private static func transcript() -> [String: Any] {
        let path = "Fixtures/hostap-session-A/transcript.json"
        guard let object = try? JSONSerialization.jsonObject(with: Data(RepositoryFile.required(path))),
            let dictionary = object as? [String: Any]
        else { fuzzFailure("\(path) is not a JSON object") }
        return dictionary
    }

    /// The hex string at a dotted path of the transcript, as octets.
    private static func bytes(_ path: String) -> [UInt8] {
        var node: Any? = transcript()
        for key in path.split(separator: ".") { node = (node as? [String: Any])?[String(key)] }
        guard let hex = node as? String, let bytes = HexString.decode(hex) else {
            fuzzFailure("transcript.json has no hex string at \(path)")
        }
        return bytes
    }

    static let phoneRandomness = randomness(phoneSide: true)
    static let accessoryRandomness = randomness(phoneSide: false)

    /// The recorded SAE rand and mask and PASN ephemeral key of one side.
    private static func randomness(phoneSide: Bool) -> PASNRandomness {
        let side = phoneSide ? "phone" : "accessory"
        return PASNRandomness(
            saeRand: bytes("pairing.sae.\(side).rand"),
            saeMask: bytes("pairing.sae.\(side).mask"),
            ephemeralPrivateKey: bytes("pairing.pasn.\(side)_ephemeral.private")
        )
    }

    /// One side's configuration, with the NAN attributes it sent in the session (frame 14 for
    /// the phone, 15 for the accessory).
    static let phoneConfiguration = configuration(phoneSide: true)
    static let accessoryConfiguration = configuration(phoneSide: false)

    private static func configuration(phoneSide: Bool) -> PASNConfiguration {
        PASNConfiguration(
            ownAddress: phoneSide ? phone : accessory,
            peerAddress: phoneSide ? accessory : phone,
            address3: clusterID,
            suite: .ncsPKPASN128,
            nanAttributes: SessionFrames.pasnNANAttributes(ofFrame: phoneSide ? 14 : 15)
        )
    }

    /// The TK and NPK the session's exchange derived.
    static let tk = bytes("pairing.pasn.tk")
    static let npk = bytes("pairing.nan_keys.npk")
}

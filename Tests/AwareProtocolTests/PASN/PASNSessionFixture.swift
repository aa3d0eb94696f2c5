import AwareCore
import AwareCrypto
import AwareProtocol
import AwareTestSupport
import AwareWire

/// hostap session A as PASN machine inputs: both sides' configurations, their recorded random
/// values, and the recorded frames as received frames.
enum PASNSessionFixture {
    static let phone = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let accessory = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
    static let pin = Array("482915".utf8)

    static func received(_ number: Int) throws -> ReceivedFrame {
        guard
            let frame = ReceivedFrame(
                bytes: try SessionFixture.frame(number),
                info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero)
            )
        else { throw SessionFixture.Missing(description: "frame \(number) does not parse") }
        return frame
    }

    /// The attributes of frame `number`'s NAN element: what that side was configured to send.
    static func nanAttributes(ofFrame number: Int) throws -> [NANAttribute] {
        guard case .pasnAuthentication(let pasn) = try received(number).frame.body, let nan = pasn.nanElement else {
            throw SessionFixture.Missing(description: "frame \(number) has no NAN element")
        }
        return nan.attributes
    }

    static func configuration(phoneSide: Bool, attributesFrom frame: Int) throws -> PASNConfiguration {
        PASNConfiguration(
            ownAddress: phoneSide ? phone : accessory,
            peerAddress: phoneSide ? accessory : phone,
            address3: clusterID,
            suite: .ncsPKPASN128,
            nanAttributes: try nanAttributes(ofFrame: frame)
        )
    }

    static func transcriptBytes(_ path: String) throws -> [UInt8] {
        try SessionFixture.bytes(try SessionFixture.transcript(), path)
    }

    /// The recorded rand, mask and ECDH private key of one side of the pairing.
    static func pairingRandomness(phoneSide: Bool) throws -> PASNRandomness {
        let side = phoneSide ? "phone" : "accessory"
        return PASNRandomness(
            saeRand: try transcriptBytes("pairing.sae.\(side).rand"),
            saeMask: try transcriptBytes("pairing.sae.\(side).mask"),
            ephemeralPrivateKey: try transcriptBytes("pairing.pasn.\(side)_ephemeral.private")
        )
    }

    static func verificationRandomness(phoneSide: Bool) throws -> PASNRandomness {
        PASNRandomness(
            ephemeralPrivateKey: try transcriptBytes(
                "verification.\(phoneSide ? "phone" : "accessory")_ephemeral.private"
            )
        )
    }

    /// The cached key each side verifies with at frames 35-37.
    static func cachedKey(phoneSide: Bool, knowsPeerNIK: Bool) throws -> PASNCachedKey {
        let own = phoneSide ? "phone" : "accessory"
        let peer = phoneSide ? "accessory" : "phone"
        return PASNCachedKey(
            npk: try transcriptBytes("pairing.nan_keys.npk"),
            akm: .sae,
            ownNPKID: try NPKID(bytes: try transcriptBytes("verification.\(own)_npkid.npkid")),
            peerNIK: knowsPeerNIK ? try transcriptBytes("nik_exchange.\(peer)_nik.nik") : nil
        )
    }

    static func transmitted(_ actions: [PASNAction]) -> [[UInt8]] {
        actions.compactMap { if case .transmit(let request) = $0 { request.frame } else { nil } }
    }

    static func notifications(_ actions: [PASNAction]) -> [PASNNotification] {
        actions.compactMap { if case .notify(let notification) = $0 { notification } else { nil } }
    }

    static func result(_ actions: [PASNAction]) -> PASNResult? {
        for case .completed(let result) in notifications(actions) { return result }
        return nil
    }

    static func failure(_ actions: [PASNAction]) -> PASNFailure? {
        for case .failed(let failure) in notifications(actions) { return failure }
        return nil
    }

    static func asReceived(_ bytes: [UInt8]) -> ReceivedFrame {
        ReceivedFrame(bytes: bytes, info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero))!
    }
}

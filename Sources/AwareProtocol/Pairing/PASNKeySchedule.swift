import AwareCore
import AwareCrypto
import AwareWire

/// From PMK and DHss to every key a PASN exchange yields (nan-wire-reference.md 3.4.2, 3.5).
struct PASNKeySchedule {
    let ptk: PASNPTK
    let nmKEK: [UInt8]
    let ndPMK: [UInt8]

    init(
        pmk: [UInt8],
        dhss: [UInt8],
        initiator: MACAddress,
        responder: MACAddress,
        akm: PASNAKM,
        suite: PASNSuiteParameters
    ) throws(KeyDerivationError) {
        let initiatorNMI = initiator.octets
        let responderNMI = responder.octets
        ptk = try PASNPTK.derive(
            pmk: pmk,
            initiatorNMI: initiatorNMI,
            responderNMI: responderNMI,
            dhss: dhss,
            akm: akm,
            cipher: suite.cipher
        )
        nmKEK = try NANPairingKeys.nmKEK(
            kdk: ptk.kdk,
            initiatorNMI: initiatorNMI,
            responderNMI: responderNMI,
            suite: suite.suite
        )
        ndPMK = try NANPairingKeys.ndPMK(
            kdk: ptk.kdk,
            initiatorNMI: initiatorNMI,
            responderNMI: responderNMI,
            suite: suite.suite
        )
    }
}

extension PASNKeySchedule {
    /// DHss from our ephemeral key and the peer's, then the keys; a refused peer key is the
    /// peer's fault, anything else ours.
    static func make(
        pmk: [UInt8],
        ephemeral: PASNEphemeralKeyPair,
        peerKey: [UInt8],
        initiator: MACAddress,
        responder: MACAddress,
        akm: PASNAKM,
        suite: PASNSuiteParameters,
        frame: UInt16
    ) -> Result<PASNKeySchedule, PASNFailure> {
        let dhss: [UInt8]
        do throws(CryptoError) {
            dhss = try ephemeral.sharedSecret(peerKey: peerKey)
        } catch {
            return .failure(.invalidPeerKey(frame: frame, reason: "\(error)"))
        }
        do throws(KeyDerivationError) {
            return .success(
                try PASNKeySchedule(
                    pmk: pmk,
                    dhss: dhss,
                    initiator: initiator,
                    responder: responder,
                    akm: akm,
                    suite: suite
                )
            )
        } catch {
            return .failure(.internalError("keys: \(error)"))
        }
    }
}

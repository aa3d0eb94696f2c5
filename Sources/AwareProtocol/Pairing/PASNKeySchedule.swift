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

/// What a pairing cipher suite fixes for PASN (nan-wire-reference.md 2.13, 3.4): the group,
/// the pairwise cipher and its RSNE selector.
struct PASNSuiteParameters {
    let suite: NANSecurityCipherSuite
    let curve: EllipticCurve
    let cipher: PASNCipher
    let pairwiseSelector: SuiteSelector

    init?(_ suite: NANSecurityCipherSuite) {
        switch suite {
        case .ncsPKPASN128:
            self.init(suite: suite, curve: .p256, cipher: .ccmp128, pairwiseSelector: .ccmp128)
        case .ncsPKPASN256:
            self.init(suite: suite, curve: .p384, cipher: .gcmp256, pairwiseSelector: .gcmp256)
        case .ncsSK128, .ncsSK256:
            return nil
        }
    }

    private init(
        suite: NANSecurityCipherSuite,
        curve: EllipticCurve,
        cipher: PASNCipher,
        pairwiseSelector: SuiteSelector
    ) {
        self.suite = suite
        self.curve = curve
        self.cipher = cipher
        self.pairwiseSelector = pairwiseSelector
    }

    var group: UInt16 { curve.groupNumber }
    var saeGroup: SAEGroup { SAEGroup(rawValue: curve.groupNumber) }

    static func akmSelector(_ akm: PASNAKM) -> SuiteSelector { akm == .sae ? .akmSAE : .akmPASN }

    static func akm(of selector: SuiteSelector) -> PASNAKM? {
        switch selector {
        case .akmSAE: .sae
        case .akmPASN: .pasn
        default: nil
        }
    }

    /// The RSNXE: SAE-H2E for SAE keys, none... hostap sends `F4 02 01 00` in a verification with
    /// a PASN-AKM NPK and nothing in opportunistic pairing (3.4 table).
    static func rsnxe(akm: PASNAKM, octets: Int) -> RSNExtensionElement? {
        switch akm {
        case .sae: return .saeHashToElement(octets: octets)
        case .pasn:
            var field = [UInt8](repeating: 0, count: max(1, min(16, octets)))
            field[0] = UInt8(truncatingIfNeeded: field.count - 1)
            return RSNExtensionElement(capabilities: field)
        }
    }
}

import AwareCore
import AwareCrypto
import AwareWire

extension PASNResponder {
    /// Frame 2 is out; the responder holds the keys and its SAE state until frame 3.
    struct AwaitingFrame3State: Sendable {
        let suite: PASNSuiteParameters
        let akm: PASNAKM
        let sae: SAESession?
        let schedule: PASNKeySchedule
        let npk: [UInt8]
        let frame1Body: [UInt8]
        let frame2Request: TxRequest
        let peerNANAttributes: [NANAttribute]

        /// Checks frame 1 and builds frame 2, or says why not and with which status to refuse.
        static func make(
            frame1: PASNAuthenticationFrame,
            configuration: PASNConfiguration,
            credential: PASNCredential,
            randomness: PASNRandomness?,
            rng: inout some RandomNumberGenerator
        ) -> Result<(AwaitingFrame3State, TxRequest), Refusal> {
            guard let suite = PASNSuiteParameters(configuration.suite) else {
                return .failure(
                    Refusal(
                        .internalError("CSID \(configuration.suite.csid) is not a pairing suite"),
                        PASNStatusCode.unspecifiedFailure
                    )
                )
            }
            guard frame1.statusCode == PASNStatusCode.success else {
                return .failure(Refusal(.peerAborted(status: frame1.statusCode), PASNStatusCode.unspecifiedFailure))
            }
            let akm: PASNAKM
            if case .cachedKey(let key) = credential { akm = key.akm } else { akm = .sae }
            if let failure = PASNFrames.checkRSN(frame1.rsn, akm: akm, suite: suite, sequence: 1) {
                return .failure(Refusal(failure, PASNStatusCode.baseAKMPFailed))
            }
            // The responder requires a CSIA naming the negotiated suite (hostap `nan_parse_csia`, 2.13).
            let csids = PASNFrames.nanAttributes(frame1).flatMap { attribute -> [UInt8] in
                guard case .cipherSuiteInfo(let csia) = attribute else { return [] }
                return csia.cipherSuites.map(\.csid.rawValue)
            }
            guard csids.contains(suite.suite.csid) else {
                return .failure(
                    Refusal(
                        .invalidFrame(frame: 1, reason: "no CSIA naming CSID \(suite.suite.csid)"),
                        PASNStatusCode.baseAKMPFailed
                    )
                )
            }
            let peerKey: [UInt8]
            switch PASNFrames.peerKey(frame1, suite: suite, sequence: 1) {
            case .success(let key): peerKey = key
            case .failure(let failure):
                let status =
                    frame1.pasnParameters?.ephemeralKey.map { $0.group != suite.group } == true
                    ? PASNStatusCode.unsupportedGroup : PASNStatusCode.unspecifiedFailure
                return .failure(Refusal(failure, status))
            }
            let ephemeral: PASNEphemeralKeyPair
            do throws(CryptoError) {
                ephemeral =
                    if let known = randomness?.ephemeralPrivateKey {
                        try PASNEphemeralKeyPair(curve: suite.curve, privateKey: known)
                    } else {
                        try PASNEphemeralKeyPair(curve: suite.curve, using: &rng)
                    }
            } catch {
                return .failure(Refusal(.internalError("ephemeral key: \(error)"), PASNStatusCode.unspecifiedFailure))
            }
            var elements: [FrameElement] = []
            var session: SAESession?
            let pmk: [UInt8]
            let pmkid: [UInt8]
            var wrapped: [UInt8]?
            switch credential {
            case .password(let password):
                switch respondSAE(
                    frame1,
                    password: password,
                    suite: suite,
                    configuration: configuration,
                    randomness: randomness,
                    rng: &rng
                ) {
                case .success(let (sae, keys, data)):
                    session = sae
                    pmk = keys.pmk
                    pmkid = keys.pmkid
                    wrapped = data
                case .failure(let refusal):
                    return .failure(refusal)
                }
            case .cachedKey(let key):
                guard frame1.wrappedData == nil else {
                    return .failure(
                        Refusal(
                            .invalidFrame(frame: 1, reason: "Wrapped Data in a verification"),
                            PASNStatusCode.unspecifiedFailure
                        )
                    )
                }
                pmk = key.npk
                pmkid = key.ownNPKID.bytes
            }
            elements.append(
                .rsn(
                    .nanPairing(
                        akm: PASNSuiteParameters.akmSelector(akm),
                        pairwise: suite.pairwiseSelector,
                        pmkid: pmkid
                    )
                )
            )
            if let wrapped { elements.append(.wrappedData(WrappedDataElement(data: wrapped))) }
            elements += PASNFrames.keyElements(
                akm: akm,
                wrapsSAE: session != nil,
                ephemeral: ephemeral,
                suite: suite,
                configuration: configuration
            )
            if configuration.sendsSupportedGroups {
                elements.append(.supportedGroups(SupportedGroupsElement(groups: [suite.group])))
            }
            let schedule: PASNKeySchedule
            switch PASNKeySchedule.make(
                pmk: pmk,
                ephemeral: ephemeral,
                peerKey: peerKey,
                initiator: configuration.peerAddress,
                responder: configuration.ownAddress,
                akm: akm,
                suite: suite,
                frame: 1
            ) {
            case .success(let keys): schedule = keys
            case .failure(let failure): return .failure(Refusal(failure, PASNStatusCode.unspecifiedFailure))
            }
            elements.append(PASNFrames.zeroMIC(length: schedule.ptk.micLength))
            let unsigned = PASNAuthenticationFrame(transactionSequence: 2, elements: elements)
            let mic: [UInt8]
            do throws(KeyDerivationError) {
                mic = try PASNMIC.frame2(
                    ptk: schedule.ptk,
                    initiatorNMI: configuration.peerAddress.octets,
                    responderNMI: configuration.ownAddress.octets,
                    rsne: PASNFrames.octets(elements[0]),
                    rsnxe: elements.first { if case .rsnExtension = $0 { true } else { false } }.map(PASNFrames.octets)
                        ?? [],
                    frameBody: unsigned.wireBytes
                )
            } catch {
                return .failure(Refusal(.internalError("frame 2 MIC: \(error)"), PASNStatusCode.unspecifiedFailure))
            }
            let frame2 = PASNFrames.request(PASNFrames.withMIC(unsigned, mic), configuration: configuration)
            let state = AwaitingFrame3State(
                suite: suite,
                akm: akm,
                sae: session,
                schedule: schedule,
                npk: pmk,
                frame1Body: frame1.wireBytes,
                frame2Request: frame2,
                peerNANAttributes: PASNFrames.nanAttributes(frame1)
            )
            return .success((state, frame2))
        }

        /// Our SAE commit and confirm for the initiator's commit (3.4.1, frame 2's Wrapped Data:
        /// each part length-prefixed).
        private static func respondSAE(
            _ frame1: PASNAuthenticationFrame,
            password: [UInt8],
            suite: PASNSuiteParameters,
            configuration: PASNConfiguration,
            randomness: PASNRandomness?,
            rng: inout some RandomNumberGenerator
        ) -> Result<(SAESession, SAEKeys, [UInt8]), Refusal> {
            let peerCommit: SAECommit
            switch PASNFrames.wrappedSAE(frame1, sequence: 1) {
            case .success(.frame1(let message)):
                guard case .commit(let commit) = message.message,
                    message.status == PASNFrames.saeHashToElementStatus
                else {
                    return .failure(
                        Refusal(
                            .invalidFrame(frame: 1, reason: "Wrapped Data is not an SAE H2E commit"),
                            PASNStatusCode.unspecifiedFailure
                        )
                    )
                }
                peerCommit = commit
            case .success:
                return .failure(
                    Refusal(
                        .invalidFrame(frame: 1, reason: "Wrapped Data is not an SAE commit"),
                        PASNStatusCode.unspecifiedFailure
                    )
                )
            case .failure(let failure):
                return .failure(Refusal(failure, PASNStatusCode.unspecifiedFailure))
            }
            guard peerCommit.group == suite.saeGroup, peerCommit.trailing.isEmpty else {
                return .failure(
                    Refusal(
                        .invalidFrame(frame: 1, reason: "SAE group \(peerCommit.group) is not \(suite.saeGroup)"),
                        PASNStatusCode.unsupportedGroup
                    )
                )
            }
            do throws(SAEError) {
                var session = try SAESession(
                    curve: suite.curve,
                    password: password,
                    ownAddress: configuration.ownAddress.octets,
                    peerAddress: configuration.peerAddress.octets
                )
                let commit =
                    if let rand = randomness?.saeRand, let mask = randomness?.saeMask {
                        try session.commit(rand: rand, mask: mask)
                    } else {
                        try session.commit(using: &rng)
                    }
                let keys = try session.process(peerScalar: peerCommit.scalar, peerElement: peerCommit.element)
                let confirm = try session.confirm(sendConfirm: 1)
                let wrapped = PASNWrappedSAE.frame2(
                    commit: SAEAuthentication(
                        transactionSequence: 1,
                        status: PASNFrames.saeHashToElementStatus,
                        message: .commit(
                            SAECommit(group: suite.saeGroup, scalar: commit.scalar, element: commit.element)
                        )
                    ),
                    confirm: SAEAuthentication(
                        transactionSequence: 2,
                        status: 0,
                        message: .confirm(SAEConfirm(sendConfirm: 1, confirm: confirm))
                    )
                )
                return .success((session, keys, PASNFrames.octets(wrapped)))
            } catch .invalidRandom, .crypto {
                return .failure(Refusal(.internalError("SAE commit"), PASNStatusCode.unspecifiedFailure))
            } catch {
                return .failure(
                    Refusal(.invalidPeerKey(frame: 1, reason: "\(error)"), PASNStatusCode.unspecifiedFailure)
                )
            }
        }

        /// Checks frame 3: status, the initiator's SAE confirm (first, so that a wrong PIN is
        /// reported as such), the MIC over frame 1's hash and frame 3 (3.4.2).
        func complete(
            with frame3: PASNAuthenticationFrame,
            configuration: PASNConfiguration,
            credential: PASNCredential
        ) -> Result<PASNResult, PASNFailure> {
            guard frame3.statusCode == PASNStatusCode.success else {
                return .failure(.peerAborted(status: frame3.statusCode))
            }
            if let sae {
                let confirm: SAEConfirm
                switch PASNFrames.wrappedSAE(frame3, sequence: 3) {
                case .success(.frame3(let message)):
                    guard case .confirm(let value) = message.message else {
                        return .failure(.invalidFrame(frame: 3, reason: "Wrapped Data is not an SAE confirm"))
                    }
                    confirm = value
                case .success:
                    return .failure(.invalidFrame(frame: 3, reason: "Wrapped Data is not an SAE confirm"))
                case .failure(let failure):
                    return .failure(failure)
                }
                do throws(SAEError) {
                    try sae.verify(peerConfirm: confirm.confirm, peerSendConfirm: confirm.sendConfirm)
                } catch {
                    return .failure(.saeConfirmMismatch)
                }
            }
            guard let mic = frame3.mic else { return .failure(.invalidFrame(frame: 3, reason: "no MIC element")) }
            do throws(KeyDerivationError) {
                try PASNMIC.verifyFrame3(
                    mic.mic,
                    ptk: schedule.ptk,
                    initiatorNMI: configuration.peerAddress.octets,
                    responderNMI: configuration.ownAddress.octets,
                    frame1Body: frame1Body,
                    frameBody: PASNFrames.bodyWithMICZeroed(frame3)
                )
            } catch {
                return .failure(.micMismatch(frame: 3))
            }
            return .success(
                PASNResult(
                    initiator: configuration.peerAddress,
                    responder: configuration.ownAddress,
                    suite: suite.suite,
                    akm: akm,
                    isVerification: credential.isVerification,
                    npk: npk,
                    tk: schedule.ptk.tk,
                    nmKEK: schedule.nmKEK,
                    ndPMK: schedule.ndPMK,
                    peerNANAttributes: peerNANAttributes
                )
            )
        }
    }

    /// Why frame 1 is refused, and the status frame 2 says it with.
    struct Refusal: Error {
        let failure: PASNFailure
        let status: UInt16
        init(_ failure: PASNFailure, _ status: UInt16) {
            self.failure = failure
            self.status = status
        }
    }
}

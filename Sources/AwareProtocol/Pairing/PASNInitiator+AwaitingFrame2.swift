import AwareCore
import AwareCrypto
import AwareWire

extension PASNInitiator {
    /// Frame 1 is out; the initiator holds its SAE state and ephemeral key until frame 2.
    struct AwaitingFrame2State: Sendable {
        let suite: PASNSuiteParameters
        let akm: PASNAKM
        var sae: SAESession?
        let ephemeral: PASNEphemeralKeyPair
        /// Frame 1's body from Authentication Algorithm on: frame 3's MIC hashes it (3.4.2).
        let frame1Body: [UInt8]
        let frame1Request: TxRequest
        var transmissions = 1

        static func make(
            configuration: PASNConfiguration,
            credential: PASNCredential,
            randomness: PASNRandomness?,
            rng: inout some RandomNumberGenerator
        ) -> Result<AwaitingFrame2State, PASNFailure> {
            guard let suite = PASNSuiteParameters(configuration.suite) else {
                return .failure(.internalError("CSID \(configuration.suite.csid) is not a pairing suite"))
            }
            do {
                let ephemeral =
                    if let known = randomness?.ephemeralPrivateKey {
                        try PASNEphemeralKeyPair(curve: suite.curve, privateKey: known)
                    } else {
                        try PASNEphemeralKeyPair(curve: suite.curve, using: &rng)
                    }
                var elements: [FrameElement] = []
                var sae: SAESession?
                let akm: PASNAKM
                switch credential {
                case .password(let password):
                    akm = .sae
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
                    sae = session
                    elements.append(.rsn(.nanPairing(akm: .akmSAE, pairwise: suite.pairwiseSelector, pmkid: nil)))
                    let wrapped = PASNWrappedSAE.frame1(
                        commit: SAEAuthentication(
                            transactionSequence: 1,
                            status: PASNFrames.saeHashToElementStatus,
                            message: .commit(
                                SAECommit(
                                    group: suite.saeGroup,
                                    scalar: commit.scalar,
                                    element: commit.element
                                )
                            )
                        )
                    )
                    elements.append(.wrappedData(WrappedDataElement(data: PASNFrames.octets(wrapped))))
                case .cachedKey(let key):
                    akm = key.akm
                    elements.append(
                        .rsn(
                            .nanPairing(
                                akm: PASNSuiteParameters.akmSelector(akm),
                                pairwise: suite.pairwiseSelector,
                                pmkid: key.ownNPKID.bytes
                            )
                        )
                    )
                }
                elements += PASNFrames.keyElements(
                    akm: akm,
                    wrapsSAE: sae != nil,
                    ephemeral: ephemeral,
                    suite: suite,
                    configuration: configuration
                )
                let frame1 = PASNAuthenticationFrame(transactionSequence: 1, elements: elements)
                return .success(
                    AwaitingFrame2State(
                        suite: suite,
                        akm: akm,
                        sae: sae,
                        ephemeral: ephemeral,
                        frame1Body: frame1.wireBytes,
                        frame1Request: PASNFrames.request(frame1, configuration: configuration)
                    )
                )
            } catch {
                return .failure(.internalError("frame 1: \(error)"))
            }
        }

        /// The PASN frame 2 of this exchange, or nil for any other frame.
        func frame2(in frame: ReceivedFrame, configuration: PASNConfiguration) -> PASNAuthenticationFrame? {
            guard frame.frame.header.address1 == configuration.ownAddress,
                frame.frame.header.address2 == configuration.peerAddress,
                case .pasnAuthentication(let pasn) = frame.frame.body, pasn.transactionSequence == 2
            else { return nil }
            return pasn
        }

        /// Checks frame 2 (status, RSNE, SAE commit and confirm or NPKID, the key, the MIC) and
        /// builds frame 3 (3.4.1, 3.4.2, 3.7).
        mutating func complete(
            with frame2: PASNAuthenticationFrame,
            configuration: PASNConfiguration,
            credential: PASNCredential
        ) -> Result<(PASNAuthenticationFrame, PASNResult), PASNFailure> {
            guard frame2.statusCode == PASNStatusCode.success else {
                return .failure(.rejected(status: frame2.statusCode))
            }
            if let failure = PASNFrames.checkRSN(frame2.rsn, akm: akm, suite: suite, sequence: 2) {
                return .failure(failure)
            }
            let peerKey: [UInt8]
            switch PASNFrames.peerKey(frame2, suite: suite, sequence: 2) {
            case .success(let key): peerKey = key
            case .failure(let failure): return .failure(failure)
            }
            let pmk: [UInt8]
            var frame3Elements: [FrameElement] = []
            switch credential {
            case .password:
                switch checkSAE(frame2) {
                case .success(let (keys, confirm)):
                    pmk = keys.pmk
                    frame3Elements.append(.wrappedData(WrappedDataElement(data: confirm)))
                case .failure(let failure):
                    return .failure(failure)
                }
            case .cachedKey(let key):
                // The responder proves it holds the pairing by answering with its NPKID, which
                // must resolve against the NIK it gave us (3.7).
                guard let pmkid = PASNFrames.pmkid(frame2), let npkid = try? NPKID(bytes: pmkid) else {
                    return .failure(.invalidFrame(frame: 2, reason: "no NPKID in the RSNE"))
                }
                if let peerNIK = key.peerNIK, !npkid.matches(nik: peerNIK, nmi: configuration.peerAddress.octets) {
                    return .failure(.unknownNPKID)
                }
                pmk = key.npk
            }
            let schedule: PASNKeySchedule
            switch PASNKeySchedule.make(
                pmk: pmk,
                ephemeral: ephemeral,
                peerKey: peerKey,
                initiator: configuration.ownAddress,
                responder: configuration.peerAddress,
                akm: akm,
                suite: suite,
                frame: 2
            ) {
            case .success(let keys): schedule = keys
            case .failure(let failure): return .failure(failure)
            }
            guard let mic = frame2.mic, let rsn = frame2.rsn else {
                return .failure(.invalidFrame(frame: 2, reason: "no MIC element"))
            }
            do {
                try PASNMIC.verifyFrame2(
                    mic.mic,
                    ptk: schedule.ptk,
                    initiatorNMI: configuration.ownAddress.octets,
                    responderNMI: configuration.peerAddress.octets,
                    rsne: PASNFrames.octets(.rsn(rsn)),
                    rsnxe: frame2.rsnExtension.map { PASNFrames.octets(.rsnExtension($0)) } ?? [],
                    frameBody: PASNFrames.bodyWithMICZeroed(frame2)
                )
            } catch {
                if configuration.verifiesPeerMIC { return .failure(.micMismatch(frame: 2)) }
            }
            frame3Elements.append(
                .pasnParameters(PASNParametersElement(wrappedDataFormat: sae == nil ? .noWrappedData : .sae))
            )
            frame3Elements.append(.nan(NANElement(attributes: configuration.nanAttributes)))
            frame3Elements.append(PASNFrames.zeroMIC(length: schedule.ptk.micLength))
            let unsigned = PASNAuthenticationFrame(transactionSequence: 3, elements: frame3Elements)
            let frame3MIC: [UInt8]
            do {
                frame3MIC = try PASNMIC.frame3(
                    ptk: schedule.ptk,
                    initiatorNMI: configuration.ownAddress.octets,
                    responderNMI: configuration.peerAddress.octets,
                    frame1Body: frame1Body,
                    frameBody: unsigned.wireBytes
                )
            } catch {
                return .failure(.internalError("frame 3 MIC: \(error)"))
            }
            let result = PASNResult(
                initiator: configuration.ownAddress,
                responder: configuration.peerAddress,
                suite: suite.suite,
                akm: akm,
                isVerification: credential.isVerification,
                npk: pmk,
                tk: schedule.ptk.tk,
                nmKEK: schedule.nmKEK,
                ndPMK: schedule.ndPMK,
                peerNANAttributes: PASNFrames.nanAttributes(frame2)
            )
            return .success((PASNFrames.withMIC(unsigned, frame3MIC), result))
        }

        /// The responder's commit and confirm: keys from its commit, its confirm verified, ours
        /// computed as frame 3's Wrapped Data (a bare confirm, 3.4.1).
        private mutating func checkSAE(_ frame2: PASNAuthenticationFrame) -> Result<(SAEKeys, [UInt8]), PASNFailure> {
            guard var session = sae else { return .failure(.internalError("no SAE session")) }
            let commit: SAECommit
            let peerConfirm: SAEConfirm
            switch PASNFrames.wrappedSAE(frame2, sequence: 2) {
            case .success(.frame2(let commitMessage, let confirmMessage)):
                guard case .commit(let c) = commitMessage.message, case .confirm(let f) = confirmMessage.message else {
                    return .failure(.invalidFrame(frame: 2, reason: "Wrapped Data is not an SAE commit and confirm"))
                }
                guard commitMessage.status == PASNFrames.saeHashToElementStatus else {
                    return .failure(
                        .invalidFrame(frame: 2, reason: "SAE commit status \(commitMessage.status) is not 126")
                    )
                }
                commit = c
                peerConfirm = f
            case .success:
                return .failure(.invalidFrame(frame: 2, reason: "Wrapped Data is not an SAE commit and confirm"))
            case .failure(let failure):
                return .failure(failure)
            }
            guard commit.group == suite.saeGroup, commit.trailing.isEmpty else {
                return .failure(.invalidFrame(frame: 2, reason: "SAE group \(commit.group) is not \(suite.saeGroup)"))
            }
            let keys: SAEKeys
            let ownConfirm: [UInt8]
            do throws(SAEError) {
                keys = try session.process(peerScalar: commit.scalar, peerElement: commit.element)
                try session.verify(peerConfirm: peerConfirm.confirm, peerSendConfirm: peerConfirm.sendConfirm)
                ownConfirm = try session.confirm(sendConfirm: 1)
            } catch .confirmMismatch {
                return .failure(.saeConfirmMismatch)
            } catch {
                return .failure(.invalidPeerKey(frame: 2, reason: "\(error)"))
            }
            guard PASNFrames.pmkid(frame2) == keys.pmkid else {
                return .failure(.invalidFrame(frame: 2, reason: "the RSNE PMKID is not the SAE PMKID"))
            }
            sae = session
            let confirm = PASNWrappedSAE.frame3(
                confirm: SAEAuthentication(
                    transactionSequence: 2,
                    status: 0,
                    message: .confirm(SAEConfirm(sendConfirm: 1, confirm: ownConfirm))
                )
            )
            return .success((keys, PASNFrames.octets(confirm)))
        }
    }
}

import AwareCore
import AwareCrypto
import AwareWire

/// Building and taking apart PASN Authentication frames (nan-wire-reference.md 3.4.1).
enum PASNFrames {
    /// The SAE commit status NAN pairing uses: hash-to-element only (3.4 table).
    static let saeHashToElementStatus: UInt16 = 126

    static func octets(_ sae: PASNWrappedSAE) -> [UInt8] {
        var writer = WireWriter()
        sae.write(to: &writer)
        return writer.bytes
    }

    /// The whole MPDU: `B0 00` header (A1 = peer, A2 = own, A3 as configured, Sequence
    /// Control 0) and the Authentication body.
    static func mpdu(_ body: PASNAuthenticationFrame, configuration: PASNConfiguration) -> [UInt8] {
        let header = ManagementHeader(
            frameControl: .management(.authentication),
            address1: configuration.peerAddress,
            address2: configuration.ownAddress,
            address3: configuration.address3
        )
        return IEEE80211Frame.management(ManagementFrame(header: header, body: .pasnAuthentication(body))).wireBytes
    }

    static func request(_ body: PASNAuthenticationFrame, configuration: PASNConfiguration) -> TxRequest {
        TxRequest(
            frame: mpdu(body, configuration: configuration),
            channel: configuration.channel,
            powerDBm: configuration.transmitPowerDBm
        )
    }

    /// A frame element as it is on the wire, ID and length included (the MIC of frame 2 covers
    /// the RSNE and RSNXE this way, 3.4.2).
    static func octets(_ element: FrameElement) -> [UInt8] {
        var writer = WireWriter()
        element.write(to: &writer)
        return writer.bytes
    }

    /// The body with the MIC element's octets zeroed, as the MIC is computed (3.4.2).
    static func bodyWithMICZeroed(_ frame: PASNAuthenticationFrame) -> [UInt8] {
        var zeroed = frame
        zeroed.elements = frame.elements.map { element in
            guard case .mic(let mic) = element, let empty = MICElement(mic: [UInt8](repeating: 0, count: mic.mic.count))
            else { return element }
            return .mic(empty)
        }
        return zeroed.wireBytes
    }

    /// Replaces the (zeroed) MIC element's value.
    static func withMIC(_ frame: PASNAuthenticationFrame, _ mic: [UInt8]) -> PASNAuthenticationFrame {
        var signed = frame
        signed.elements = frame.elements.map { element in
            guard case .mic = element, let value = MICElement(mic: mic) else { return element }
            return .mic(value)
        }
        return signed
    }

    static func zeroMIC(length: Int) -> FrameElement {
        // 16 and 24 are the only MIC lengths a PTK has (PASNPTK.micLength).
        .mic(MICElement(mic: [UInt8](repeating: 0, count: length == 24 ? 24 : 16))!)
    }

    /// The SAE messages of the Wrapped Data element, parsed for frame `sequence`.
    static func wrappedSAE(
        _ frame: PASNAuthenticationFrame,
        sequence: UInt16
    ) -> Result<PASNWrappedSAE, PASNFailure> {
        guard let wrapped = frame.wrappedData else {
            return .failure(.invalidFrame(frame: sequence, reason: "no Wrapped Data element"))
        }
        var reader = WireReader(wrapped.data, structure: "PASN Wrapped Data")
        do throws(WireError) {
            let sae = try PASNWrappedSAE(from: &reader, pasnSequence: sequence)
            try reader.expectEnd()
            return .success(sae)
        } catch {
            return .failure(.invalidFrame(frame: sequence, reason: "Wrapped Data: \(error)"))
        }
    }

    /// What frames 1 and 2 carry after the RSNE and Wrapped Data, in hostap's order (3.4.1):
    /// RSNXE, PASN Parameters with our ephemeral key, our NAN element.
    static func keyElements(
        akm: PASNAKM,
        wrapsSAE: Bool,
        ephemeral: PASNEphemeralKeyPair,
        suite: PASNSuiteParameters,
        configuration: PASNConfiguration
    ) -> [FrameElement] {
        var elements: [FrameElement] = []
        if let rsnxe = PASNSuiteParameters.rsnxe(akm: akm, octets: configuration.rsnxeOctets) {
            elements.append(.rsnExtension(rsnxe))
        }
        elements.append(
            .pasnParameters(
                PASNParametersElement(
                    wrappedDataFormat: wrapsSAE ? .sae : .noWrappedData,
                    ephemeralKey: PASNEphemeralKey(group: suite.group, publicKey: ephemeral.wireKey)
                )
            )
        )
        elements.append(.nan(NANElement(attributes: configuration.nanAttributes)))
        return elements
    }

    /// The RSNE's AKM and pairwise cipher must be the negotiated ones.
    static func checkRSN(
        _ rsn: RSNElement?,
        akm: PASNAKM,
        suite: PASNSuiteParameters,
        sequence: UInt16
    ) -> PASNFailure? {
        guard let rsn else { return .invalidFrame(frame: sequence, reason: "no RSNE") }
        guard rsn.akmSuites == [PASNSuiteParameters.akmSelector(akm)] else {
            return .invalidFrame(frame: sequence, reason: "the RSNE's AKM is not \(akm)")
        }
        guard rsn.pairwiseCipherSuites == [suite.pairwiseSelector] else {
            return .invalidFrame(frame: sequence, reason: "the RSNE's pairwise cipher is not \(suite.cipher)")
        }
        return nil
    }

    /// The peer's ephemeral key from PASN Parameters, on the negotiated group.
    static func peerKey(
        _ frame: PASNAuthenticationFrame,
        suite: PASNSuiteParameters,
        sequence: UInt16
    )
        -> Result<[UInt8], PASNFailure>
    {
        guard let parameters = frame.pasnParameters else {
            return .failure(.invalidFrame(frame: sequence, reason: "no PASN Parameters element"))
        }
        guard let key = parameters.ephemeralKey else {
            return .failure(.invalidFrame(frame: sequence, reason: "PASN Parameters carry no ephemeral key"))
        }
        guard key.group == suite.group else {
            return .failure(.invalidFrame(frame: sequence, reason: "group \(key.group) is not \(suite.group)"))
        }
        return .success(key.publicKey)
    }

    /// The NPKID in the RSNE PMKID list (3.7).
    static func pmkid(_ frame: PASNAuthenticationFrame) -> [UInt8]? {
        guard let pmkids = frame.rsn?.pmkids, pmkids.count == 1 else { return nil }
        return pmkids[0]
    }

    static func nanAttributes(_ frame: PASNAuthenticationFrame) -> [NANAttribute] {
        frame.nanElement?.attributes ?? []
    }
}

/// What a responder's owner reads from a PASN frame 1 before it picks a credential
/// (nan-wire-reference.md 3.4.1, 3.7): a pairing setup carries SAE Wrapped Data, a verification
/// none and an NPKID in the RSNE PMKID.
public struct PASNFrame1Summary: Hashable, Sendable {
    public var initiator: MACAddress
    public var isVerification: Bool
    /// The initiator's NPKID in a verification.
    public var npkid: NPKID?
    /// The CSIDs the initiator's CSIA names.
    public var cipherSuiteIDs: [UInt8]
    public var nanAttributes: [NANAttribute]
    /// The frame body, to recognise a retransmission or a replay.
    public var body: [UInt8]

    /// nil unless `frame` is a PASN frame 1 addressed to `ownAddress`.
    public init?(_ frame: ReceivedFrame, ownAddress: MACAddress) {
        guard frame.frame.header.address1 == ownAddress,
            case .pasnAuthentication(let pasn) = frame.frame.body, pasn.transactionSequence == 1
        else { return nil }
        initiator = frame.frame.header.address2
        isVerification = pasn.wrappedData == nil && PASNFrames.pmkid(pasn) != nil
        npkid = isVerification ? PASNFrames.pmkid(pasn).flatMap { try? NPKID(bytes: $0) } : nil
        nanAttributes = PASNFrames.nanAttributes(pasn)
        cipherSuiteIDs = nanAttributes.flatMap { attribute -> [UInt8] in
            guard case .cipherSuiteInfo(let csia) = attribute else { return [] }
            return csia.cipherSuites.map(\.csid.rawValue)
        }
        body = pasn.wireBytes
    }
}

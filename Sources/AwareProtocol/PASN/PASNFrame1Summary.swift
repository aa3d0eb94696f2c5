import AwareCore
import AwareCrypto
import AwareWire

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

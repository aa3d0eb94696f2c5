import AwareCore
import AwareCrypto
import AwareWire

/// What a completed PASN exchange leaves both sides with (nan-wire-reference.md 3.4.2, 3.5).
public struct PASNResult: Hashable, Sendable {
    public var initiator: MACAddress
    public var responder: MACAddress
    public var suite: NANSecurityCipherSuite
    public var akm: PASNAKM
    /// True for a pairing verification with a cached NPK (3.7), false for a pairing setup.
    public var isVerification: Bool
    /// The NPK: the SAE PMK of a setup, the cached NPK of a verification.
    public var npk: [UInt8]
    /// NM-TK (the PASN TK), which protects unicast management frames to the peer (3.8).
    public var tk: [UInt8]
    /// NM-KEK, which wraps the NIKs the pair exchange next (3.6).
    public var nmKEK: [UInt8]
    /// ND-PMK for data paths with the peer (3.5).
    public var ndPMK: [UInt8]
    /// The attributes of the peer's NAN element (its DCEA says whether it caches keys, its NIRA
    /// who it is).
    public var peerNANAttributes: [NANAttribute]

    public init(
        initiator: MACAddress,
        responder: MACAddress,
        suite: NANSecurityCipherSuite,
        akm: PASNAKM,
        isVerification: Bool,
        npk: [UInt8],
        tk: [UInt8],
        nmKEK: [UInt8],
        ndPMK: [UInt8],
        peerNANAttributes: [NANAttribute]
    ) {
        self.initiator = initiator
        self.responder = responder
        self.suite = suite
        self.akm = akm
        self.isVerification = isVerification
        self.npk = npk
        self.tk = tk
        self.nmKEK = nmKEK
        self.ndPMK = ndPMK
        self.peerNANAttributes = peerNANAttributes
    }

    /// Whether the peer's DCEA says it caches NPK and NIK.
    public var peerCachesKeys: Bool {
        peerNANAttributes.contains {
            if case .deviceCapabilityExtension(let dcea) = $0 { dcea.npkNIKCachingEnabled } else { false }
        }
    }

    /// The NIRA the peer sent in its NAN element, if any.
    public var peerIdentityResolution: IdentityResolutionAttribute? {
        for attribute in peerNANAttributes {
            if case .identityResolution(let nira) = attribute { return nira }
        }
        return nil
    }
}

extension PASNResult: CustomStringConvertible {
    /// Keys stay out of logs.
    public var description: String {
        "PASNResult(\(isVerification ? "verification" : "pairing") \(initiator) -> \(responder), "
            + "CSID \(suite.csid), keys <redacted>)"
    }
}

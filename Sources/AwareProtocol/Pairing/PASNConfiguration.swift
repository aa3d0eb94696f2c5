import AwareCore
import AwareCrypto
import AwareWire

/// One side of one PASN exchange with one peer (nan-wire-reference.md 3.4.1).
public struct PASNConfiguration: Hashable, Sendable {
    public var ownAddress: MACAddress
    public var peerAddress: MACAddress
    /// A3 of the Authentication frames: hostap puts the Cluster ID there, ESP-IDF the responder
    /// NMI (3.9). Received frames are accepted with either.
    public var address3: MACAddress
    /// NCS-PK-PASN-128 (group 19, CCMP-128) or NCS-PK-PASN-256 (group 20, GCMP-256).
    public var suite: NANSecurityCipherSuite
    /// The channel the peer listens on between windows.
    public var channel: NANChannel
    public var transmitPowerDBm: Int
    /// The attributes of our NAN element: CSIA, DCEA and the stored NPBA for a pairing, CSIA and
    /// our NIRA for a verification (3.4.1 item 5, 3.7).
    public var nanAttributes: [NANAttribute]
    /// Octets of the RSNXE capability field: hostap and wpa_supplicant send 2 (`F4 02 21 00`),
    /// ESP-IDF 1 (`F4 01 20`); both are accepted on receive (3.9).
    public var rsnxeOctets: Int
    /// Whether frame 2 carries a Supported Groups element (hostap does, ESP-IDF does not, 3.9).
    public var sendsSupportedGroups: Bool
    /// How long to wait for the peer's next frame.
    public var responseTimeout: Interval
    /// How often the initiator sends frame 1 before giving up.
    public var maxFrame1Transmissions: Int
    /// False only for a conformance test's rogue initiator, which carries on to frame 3 when
    /// frame 2's MIC does not verify, so that the responder's own check of frame 3 is exercised.
    public var verifiesPeerMIC = true

    public init(
        ownAddress: MACAddress,
        peerAddress: MACAddress,
        address3: MACAddress,
        suite: NANSecurityCipherSuite = .ncsPKPASN128,
        channel: NANChannel = .channel6,
        transmitPowerDBm: Int = 20,
        nanAttributes: [NANAttribute] = [],
        rsnxeOctets: Int = 2,
        sendsSupportedGroups: Bool = true,
        responseTimeout: Interval = .seconds(1),
        maxFrame1Transmissions: Int = 3
    ) {
        self.ownAddress = ownAddress
        self.peerAddress = peerAddress
        self.address3 = address3
        self.suite = suite
        self.channel = channel
        self.transmitPowerDBm = transmitPowerDBm
        self.nanAttributes = nanAttributes
        self.rsnxeOctets = rsnxeOctets
        self.sendsSupportedGroups = sendsSupportedGroups
        self.responseTimeout = responseTimeout
        self.maxFrame1Transmissions = maxFrame1Transmissions
    }
}

/// What authenticates one PASN exchange (nan-wire-reference.md 3.4, 3.7).
public enum PASNCredential: Hashable, Sendable {
    /// Pairing setup: SAE hash-to-element with the PIN or passphrase as the password, AKM
    /// 00-0F-AC:8, the SAE PMK becomes the NPK.
    case password([UInt8])
    /// Pairing verification with the NPK cached at an earlier pairing: no Wrapped Data, the RSNE
    /// PMKID and a NIRA carry our NPKID, PMK = NPK.
    case cachedKey(PASNCachedKey)

    public var isVerification: Bool {
        if case .cachedKey = self { true } else { false }
    }
}

/// A cached pairing as PASN verification uses it (nan-wire-reference.md 3.7).
public struct PASNCachedKey: Hashable, Sendable {
    /// The NPK, 32 octets.
    public var npk: [UInt8]
    /// The AKM of the pairing that produced the NPK (SAE for a PIN pairing).
    public var akm: PASNAKM
    /// Our NPKID: a fresh NIRA nonce with the tag over our own NIK and NMI.
    public var ownNPKID: NPKID
    /// The peer's NIK, to check the NPKID it answers with against its NMI; nil when the owner
    /// already resolved the peer (the responder looks the initiator up before answering).
    public var peerNIK: [UInt8]?

    public init(npk: [UInt8], akm: PASNAKM, ownNPKID: NPKID, peerNIK: [UInt8]?) {
        self.npk = npk
        self.akm = akm
        self.ownNPKID = ownNPKID
        self.peerNIK = peerNIK
    }
}

extension PASNCachedKey: CustomStringConvertible {
    /// Keys stay out of logs.
    public var description: String { "PASNCachedKey(akm: \(akm), npk: <redacted>)" }
}

/// Known random values for one side of an exchange, so that tests can replay a recorded session
/// (hostap session A records each side's SAE rand and mask and its ECDH private key). A run
/// without them draws everything from the machine's seeded generator.
public struct PASNRandomness: Hashable, Sendable {
    public var saeRand: [UInt8]?
    public var saeMask: [UInt8]?
    public var ephemeralPrivateKey: [UInt8]

    public init(saeRand: [UInt8]? = nil, saeMask: [UInt8]? = nil, ephemeralPrivateKey: [UInt8]) {
        self.saeRand = saeRand
        self.saeMask = saeMask
        self.ephemeralPrivateKey = ephemeralPrivateKey
    }
}

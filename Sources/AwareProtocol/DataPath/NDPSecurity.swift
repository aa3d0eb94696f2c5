import AwareCore
import AwareCrypto
import AwareWire

/// What one side uses to secure one data path (nan-wire-reference.md 4.2).
public enum NDPSecurity: Hashable, Sendable {
    /// No security: no CSIA, SCIA or SKDA, no keys.
    case open
    /// NCS-PK-PASN (CSID 7 / 8) with a paired peer: the ND-PMK comes from the pairing KDK (3.5).
    case pairing(ndPMK: [UInt8], suite: NANSecurityCipherSuite)
    /// NCS-SK (CSID 1 / 2) with a PMK given directly.
    case pmk([UInt8], suite: NANSecurityCipherSuite)
    /// NCS-SK (CSID 1 / 2) with the PMK derived from a passphrase; the salt names the service and
    /// the publisher NMI, so it is derived per data path (4.2).
    case passphrase(String, suite: NANSecurityCipherSuite)

    /// The cipher suite, nil when open.
    public var suite: NANSecurityCipherSuite? {
        switch self {
        case .open: nil
        case .pairing(_, let suite), .pmk(_, let suite), .passphrase(_, let suite): suite
        }
    }

    /// Whether this credential can serve a request naming `suite`: pairing ND-PMKs go with CSID
    /// 7 / 8 only and NCS-SK keys with CSID 1 / 2 only; within a family the request picks the
    /// hash (hostap uses the pairing CSID for a paired peer, transcript.json `ndp.csid_note`).
    func serves(_ requested: NANSecurityCipherSuite) -> Bool {
        switch self {
        case .open: false
        case .pairing: requested.isPairingSuite
        case .pmk, .passphrase: !requested.isPairingSuite
        }
    }

    /// The ND-PMK for `suite` (4.2): the passphrase salt uses the service ID and publisher NMI.
    func pmk(
        suite: NANSecurityCipherSuite,
        serviceID: ServiceID,
        publisherNMI: MACAddress
    ) throws(KeyDerivationError) -> [UInt8] {
        switch self {
        case .open: return []
        case .pairing(let key, _), .pmk(let key, _): return key
        case .passphrase(let passphrase, _):
            return try NDPMK.fromPassphrase(
                passphrase,
                suite: suite,
                serviceID: serviceID.octets,
                publisherNMI: publisherNMI.octets
            )
        }
    }
}

extension NANSecurityCipherSuite {
    /// The data cipher of the suite: CSID 1 / 7 -> CCMP-128, 2 / 8 -> GCMP-256 (2.13).
    public var dataCipher: PASNCipher { hash == .sha256 ? .ccmp128 : .gcmp256 }

    var keyMICLayout: KeyMICLayout { micLength == 24 ? .octets24 : .octets16 }
}

/// The four key descriptors of the NDP handshake (nan-wire-reference.md 4.2 table).
enum NDPKeyMessage: Int {
    case m1 = 1
    case m2 = 2
    case m3 = 3
    case m4 = 4

    /// Key Information: m1 Pairwise+Ack, m2 Pairwise+MIC, m3 Pairwise+Install+Ack+MIC+Secure,
    /// m4 Pairwise+Install+MIC+Secure. Encrypted Key Data (0x1000) is allowed on m3 / m4.
    var keyInformation: EAPOLKeyInformation {
        switch self {
        case .m1: [.pairwise, .keyAck]
        case .m2: [.pairwise, .keyMIC]
        case .m3: [.pairwise, .install, .keyAck, .keyMIC, .secure]
        case .m4: [.pairwise, .install, .keyMIC, .secure]
        }
    }

    func descriptor(nonce: [UInt8], replayCounter: UInt64, suite: NANSecurityCipherSuite) -> RSNAKeyDescriptor {
        RSNAKeyDescriptor(
            keyInformation: keyInformation,
            replayCounter: replayCounter,
            nonce: nonce,
            micLayout: suite.keyMICLayout
        )
    }

    /// Whether a received descriptor is this message.
    func matches(_ descriptor: RSNAKeyDescriptor) -> Bool {
        var information = descriptor.keyInformation
        if self == .m3 || self == .m4 { information.remove(.encryptedKeyData) }
        return information == keyInformation && descriptor.nonce.count == 32
    }
}

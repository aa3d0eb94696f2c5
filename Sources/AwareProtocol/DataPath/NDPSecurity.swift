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

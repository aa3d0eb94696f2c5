/// `pairings.json` as JSON values, before the store checks them (hex strings, raw numbers).
/// Format 1:
///
///     { "format": 1, "ownNIK": "<32 hex>"|null, "peers": [ { "peerNMI": "02:b0:..", "peerNIK": "<32 hex>"|null,
///       "npk": "<64 hex>", "akm": "sae"|"pasn", "cipherSuite": 7|8, "pairedAt": <unix seconds>,
///       "nikLifetimeSeconds": <0 = no expiry>, "label": "<text>" (absent when unknown) } ] }
struct PairingStoreFile: Codable {
    static let currentFormat = 1

    /// Read first and alone, so that a newer format is reported as such rather than as damage.
    struct FormatProbe: Decodable {
        var format: Int
    }

    struct Peer: Codable {
        var peerNMI: String
        var peerNIK: String?
        var npk: String
        var akm: String
        var cipherSuite: Int
        var pairedAt: Int64
        var nikLifetimeSeconds: Int
        var label: String?

        enum CodingKeys: String, CodingKey {
            case peerNMI, peerNIK, npk, akm, cipherSuite, pairedAt, nikLifetimeSeconds, label
        }

        init(
            peerNMI: String,
            peerNIK: String?,
            npk: String,
            akm: String,
            cipherSuite: Int,
            pairedAt: Int64,
            nikLifetimeSeconds: Int,
            label: String?
        ) {
            self.peerNMI = peerNMI
            self.peerNIK = peerNIK
            self.npk = npk
            self.akm = akm
            self.cipherSuite = cipherSuite
            self.pairedAt = pairedAt
            self.nikLifetimeSeconds = nikLifetimeSeconds
            self.label = label
        }

        /// `peerNIK` is always written, as null when there is none, so a reader sees the field.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(peerNMI, forKey: .peerNMI)
            if let peerNIK { try container.encode(peerNIK, forKey: .peerNIK) } else { try container.encodeNil(forKey: .peerNIK) }
            try container.encode(npk, forKey: .npk)
            try container.encode(akm, forKey: .akm)
            try container.encode(cipherSuite, forKey: .cipherSuite)
            try container.encode(pairedAt, forKey: .pairedAt)
            try container.encode(nikLifetimeSeconds, forKey: .nikLifetimeSeconds)
            try container.encodeIfPresent(label, forKey: .label)
        }
    }

    var format: Int
    var ownNIK: String?
    var peers: [Peer]

    enum CodingKeys: String, CodingKey {
        case format, ownNIK, peers
    }

    init(format: Int, ownNIK: String?, peers: [Peer]) {
        self.format = format
        self.ownNIK = ownNIK
        self.peers = peers
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        if let ownNIK { try container.encode(ownNIK, forKey: .ownNIK) } else { try container.encodeNil(forKey: .ownNIK) }
        try container.encode(peers, forKey: .peers)
    }
}

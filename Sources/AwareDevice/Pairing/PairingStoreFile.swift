/// `pairings.json` as JSON values, before the store checks them (hex strings, raw numbers).
/// Format 1:
///
///     { "format": 1, "ownNIK": "<32 hex>"|null, "peers": [ { "peerNMI": "02:b0:..", "peerNIK": "<32 hex>"|null,
///       "npk": "<64 hex>", "akm": "sae"|"pasn", "cipherSuite": 7|8, "pairedAt": <unix seconds>,
///       "nikLifetimeSeconds": <0 = no expiry>, "label": "<text>" (absent when unknown) } ] }
struct PairingStoreFile: Codable {
    static let currentFormat: Int64 = 1

    /// Read first and alone, so that a newer format is reported as such rather than as damage.
    struct FormatProbe: Decodable {
        var format: WholeNumber
    }

    /// A JSON number that must be whole and fit an Int64. Foundation on Linux reports `7.5` read
    /// as an integer as invalid JSON with no location; this names the field instead.
    struct WholeNumber: Codable, Hashable {
        static let problem = "is not a whole number in range"

        var value: Int64

        init(_ value: Int64) {
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int64.self) {
                self.value = value
            } else if (try? container.decode(Double.self)) != nil {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.problem)
            } else {
                value = try container.decode(Int64.self)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    struct Peer: Codable {
        var peerNMI: String
        var peerNIK: String?
        var npk: String
        var akm: String
        var cipherSuite: WholeNumber
        var pairedAt: WholeNumber
        var nikLifetimeSeconds: WholeNumber
        var label: String?

        enum CodingKeys: String, CodingKey {
            case peerNMI, peerNIK, npk, akm, cipherSuite, pairedAt, nikLifetimeSeconds, label
        }

        init(
            peerNMI: String,
            peerNIK: String?,
            npk: String,
            akm: String,
            cipherSuite: WholeNumber,
            pairedAt: WholeNumber,
            nikLifetimeSeconds: WholeNumber,
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
            if let peerNIK {
                try container.encode(peerNIK, forKey: .peerNIK)
            } else {
                try container.encodeNil(forKey: .peerNIK)
            }
            try container.encode(npk, forKey: .npk)
            try container.encode(akm, forKey: .akm)
            try container.encode(cipherSuite, forKey: .cipherSuite)
            try container.encode(pairedAt, forKey: .pairedAt)
            try container.encode(nikLifetimeSeconds, forKey: .nikLifetimeSeconds)
            try container.encodeIfPresent(label, forKey: .label)
        }
    }

    var format: WholeNumber
    var ownNIK: String?
    var peers: [Peer]

    enum CodingKeys: String, CodingKey {
        case format, ownNIK, peers
    }

    init(format: WholeNumber, ownNIK: String?, peers: [Peer]) {
        self.format = format
        self.ownNIK = ownNIK
        self.peers = peers
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        if let ownNIK {
            try container.encode(ownNIK, forKey: .ownNIK)
        } else {
            try container.encodeNil(forKey: .ownNIK)
        }
        try container.encode(peers, forKey: .peers)
    }
}

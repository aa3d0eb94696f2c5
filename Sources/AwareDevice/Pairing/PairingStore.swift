import AwareCore
import AwareCrypto
import AwareWire
import Foundation

/// The paired peers and this device's own NIK, kept in `pairings.json` in a state directory
/// (the accessory's `--state-dir`, the phone's `--phone-state`). Every change is read, checked
/// and written whole and atomically; a file that does not check out is reported as
/// `.corrupt` or `.unsupportedFormat` and never rewritten.
public final class PairingStore: Sendable {
    public static let fileName = "pairings.json"

    public let directory: StateDirectory

    /// A store in a directory this process has already opened (and so locked).
    public init(directory: StateDirectory) {
        self.directory = directory
    }

    /// Opens and locks `path`; `.inUse` when another store or process has it.
    public convenience init(path: String) throws(DeviceStateError) {
        self.init(directory: try StateDirectory(path: path))
    }

    var filePath: String { directory.filePath(Self.fileName) }

    /// What the file holds; empty when there is no file yet.
    public func load() throws(DeviceStateError) -> PairingStoreContents {
        guard let data = try directory.read(Self.fileName) else { return .empty }
        return try Self.decode(data, path: filePath)
    }

    /// The paired peers.
    public var records: [PairingRecord] {
        get throws(DeviceStateError) { try load().peers }
    }

    /// This device's NIK, made with `generate` and stored the first time it is asked for.
    public func ownNIK(creatingWith generate: () -> [UInt8]) throws(DeviceStateError) -> [UInt8] {
        var contents = try load()
        if let nik = contents.ownNIK { return nik }
        let nik = generate()
        guard nik.count == PairingRecord.nikLength else {
            throw .invalidRecord(reason: "ownNIK has \(nik.count) octets, not \(PairingRecord.nikLength)")
        }
        contents.ownNIK = nik
        try save(contents)
        return nik
    }

    /// Stores `record`, replacing the record of the same peer: the same NIK (a peer that came
    /// back with a new NMI) or the same NMI. A new peer beyond `cap` is refused with
    /// `.pairedDeviceLimit` and nothing is written: no pairing is evicted silently.
    public func upsert(_ record: PairingRecord, cap: Int?) throws(DeviceStateError) {
        if let reason = record.invalidity { throw .invalidRecord(reason: reason) }
        var contents = try load()
        let matches = contents.peers.indices.filter { index in
            let peer = contents.peers[index]
            if peer.peerNMI == record.peerNMI { return true }
            guard let nik = record.peerNIK, let stored = peer.peerNIK else { return false }
            return nik == stored
        }
        if let first = matches.first {
            contents.peers[first] = record
            for index in matches.dropFirst().reversed() { contents.peers.remove(at: index) }
        } else {
            if let cap, contents.peers.count >= cap { throw .pairedDeviceLimit(cap) }
            contents.peers.append(record)
        }
        try save(contents)
    }

    /// Forgets the peer with `peerNMI`; false when there was none.
    @discardableResult
    public func remove(peerNMI: MACAddress) throws(DeviceStateError) -> Bool {
        var contents = try load()
        let before = contents.peers.count
        contents.peers.removeAll { $0.peerNMI == peerNMI }
        guard contents.peers.count != before else { return false }
        try save(contents)
        return true
    }

    /// The factory reset's part: deletes `pairings.json`, so every peer and the own NIK are
    /// gone. It does not read the file first, so a damaged store can be reset too.
    /// True when there was a file.
    @discardableResult
    public func reset() throws(DeviceStateError) -> Bool {
        try directory.remove(Self.fileName)
    }

    private func save(_ contents: PairingStoreContents) throws(DeviceStateError) {
        try directory.writeAtomically(Self.encode(contents, path: filePath), to: Self.fileName)
    }
}

extension PairingStore {
    static func encode(_ contents: PairingStoreContents, path: String) throws(DeviceStateError) -> Data {
        let file = PairingStoreFile(
            format: PairingStoreFile.WholeNumber(PairingStoreFile.currentFormat),
            ownNIK: contents.ownNIK.map { HexString.encode($0) },
            peers: contents.peers.map { record in
                PairingStoreFile.Peer(
                    peerNMI: record.peerNMI.description,
                    peerNIK: record.peerNIK.map { HexString.encode($0) },
                    npk: HexString.encode(record.npk),
                    akm: record.akm.rawValue,
                    cipherSuite: PairingStoreFile.WholeNumber(Int64(record.cipherSuite)),
                    pairedAt: PairingStoreFile.WholeNumber(record.pairedAt),
                    nikLifetimeSeconds: PairingStoreFile.WholeNumber(Int64(record.nikLifetimeSeconds)),
                    label: record.label
                )
            }
        )
        guard let value = try? JSONValueEncoder().encode(file) else {
            throw .unusable(path: path, reason: "cannot encode the pairing store")
        }
        return Data(value.serialized([.prettyPrinted, .sortedKeys]).utf8)
    }

    static func decode(_ data: Data, path: String) throws(DeviceStateError) -> PairingStoreContents {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            throw .corrupt(path: path, reason: "not valid JSON at \(error)")
        }
        let decoder = JSONValueDecoder()
        let probe: PairingStoreFile.FormatProbe
        do {
            probe = try decoder.decode(PairingStoreFile.FormatProbe.self, from: document)
        } catch {
            throw .corrupt(
                path: path,
                reason: Self.explain(error, whole: "not a JSON object with a whole-number format")
            )
        }
        guard probe.format.value == PairingStoreFile.currentFormat else {
            throw .unsupportedFormat(path: path, format: String(probe.format.value))
        }
        let file: PairingStoreFile
        do {
            file = try decoder.decode(PairingStoreFile.self, from: document)
        } catch {
            throw .corrupt(path: path, reason: Self.explain(error, whole: "not the pairing store JSON"))
        }
        var contents = PairingStoreContents()
        if let text = file.ownNIK {
            contents.ownNIK = try key(text, octets: PairingRecord.nikLength, field: "ownNIK", path: path)
        }
        var seenNMIs: Set<MACAddress> = []
        for (index, peer) in file.peers.enumerated() {
            func corrupt(_ field: String, _ problem: String) -> DeviceStateError {
                .corrupt(path: path, reason: "peers[\(index)].\(field) \(problem)")
            }
            guard let nmi = MACAddress(string: peer.peerNMI) else { throw corrupt("peerNMI", "is not a MAC address") }
            guard seenNMIs.insert(nmi).inserted else { throw corrupt("peerNMI", "repeats an earlier peer's NMI") }
            let nik = try peer.peerNIK.map { (text) throws(DeviceStateError) in
                try key(text, octets: PairingRecord.nikLength, field: "peers[\(index)].peerNIK", path: path)
            }
            let npk = try key(peer.npk, octets: PairingRecord.npkLength, field: "peers[\(index)].npk", path: path)
            guard let akm = PASNAKM(rawValue: peer.akm) else { throw corrupt("akm", "is not \"sae\" or \"pasn\"") }
            guard let suite = UInt8(exactly: peer.cipherSuite.value), PairingRecord.cipherSuites.contains(suite) else {
                throw corrupt("cipherSuite", "is not 7 or 8")
            }
            guard peer.pairedAt.value >= 0 else { throw corrupt("pairedAt", "is negative") }
            guard let lifetime = Int(exactly: peer.nikLifetimeSeconds.value), lifetime >= 0 else {
                throw corrupt("nikLifetimeSeconds", "is negative")
            }
            contents.peers.append(
                PairingRecord(
                    peerNMI: nmi,
                    peerNIK: nik,
                    npk: npk,
                    akm: akm,
                    cipherSuite: suite,
                    pairedAt: peer.pairedAt.value,
                    nikLifetimeSeconds: lifetime,
                    label: peer.label
                )
            )
        }
        return contents
    }

    /// Plain lower- or upper-case hex digits only (no separators), of exactly `octets` octets.
    /// The reason names the field and the length, never the digits.
    private static func key(
        _ text: String,
        octets: Int,
        field: String,
        path: String
    ) throws(DeviceStateError) -> [UInt8] {
        guard text.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }),
            let bytes = HexString.decode(text)
        else { throw .corrupt(path: path, reason: "\(field) is not hex digits") }
        guard bytes.count == octets else {
            throw .corrupt(path: path, reason: "\(field) has \(bytes.count) octets, not \(octets)")
        }
        return bytes
    }

    /// A decoding error as "where: what", without the offending value.
    private static func explain(_ error: any Error, whole: String) -> String {
        guard let error = error as? DecodingError else { return whole }
        let context: DecodingError.Context
        let problem: String
        switch error {
        case .typeMismatch(_, let c):
            context = c
            problem = "has the wrong type"
        case .valueNotFound(_, let c):
            context = c
            problem = "is null"
        case .keyNotFound(let key, let c):
            return "\(Self.location(c.codingPath + [key])) is missing"
        case .dataCorrupted(let c):
            context = c
            problem = c.debugDescription == PairingStoreFile.WholeNumber.problem ? c.debugDescription : "is not valid"
        @unknown default:
            return whole
        }
        if context.codingPath.isEmpty { return whole }
        return "\(Self.location(context.codingPath)) \(problem)"
    }

    /// `peers[1].npk` for a coding path.
    private static func location(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}

// MARK: - PairingStoreContents

/// Everything in `pairings.json`: this device's own NIK and its paired peers.
public struct PairingStoreContents: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The NIK this device gives its peers; nil until `PairingStore.ownNIK(creatingWith:)` makes one.
    public var ownNIK: [UInt8]?
    public var peers: [PairingRecord]

    public init(ownNIK: [UInt8]? = nil, peers: [PairingRecord] = []) {
        self.ownNIK = ownNIK
        self.peers = peers
    }

    public static let empty = PairingStoreContents()

    public var description: String {
        "PairingStoreContents(ownNIK: \(ownNIK == nil ? "none" : "<redacted>"), peers: \(peers))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["ownNIK": ownNIK == nil ? "none" : "<redacted>", "peers": peers],
            displayStyle: .struct
        )
    }
}

// MARK: - PairingStoreFile

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

    /// A JSON number that must be whole and fit an Int64; any other number is reported as
    /// `problem` at its field (rather than as the decoder's "does not fit").
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

import AwareCore
import Foundation
import Testing

@testable import AwareWire

/// Session A (Fixtures/hostap-session-A): the pcap decoded by AwareWire next to
/// transcript.json read with Foundation's JSON parser, so the oracle never goes through
/// the code under test.
struct GoldenSession {
    let records: [CaptureRecord]
    let frames: [IEEE80211Frame]
    let transcript: [String: Any]

    init() throws {
        let pcap = try FrameTestSupport.fixture("hostap-session-A/session.pcap")
        records = try CaptureReader.read(bytes: Array(pcap))
        frames = try records.map { try IEEE80211Frame(bytes: $0.frame) }
        let json = try FrameTestSupport.fixture("hostap-session-A/transcript.json")
        transcript = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    /// The transcript's `frames` table, one row per pcap frame.
    var rows: [[String: Any]] { transcript["frames"] as? [[String: Any]] ?? [] }

    /// The node at a dotted path (`pairing.sae.phone.confirm`).
    func node(_ path: String) -> Any? {
        var current: Any? = transcript
        for component in path.split(separator: ".") {
            current = (current as? [String: Any])?[String(component)]
        }
        return current
    }

    func hex(_ path: String) -> [UInt8]? { (node(path) as? String).flatMap(HexString.decode) }
    func int(_ path: String) -> Int? { node(path) as? Int }
    func string(_ path: String) -> String? { node(path) as? String }

    /// The octets a `wire_locations` entry names. Points (`commit_element`) are stored as
    /// `{x, y}` and travel as x || y; MICs as `{frame, value}`; `nonce||tag` names the
    /// NIRA nonce then tag; `send_confirm_and_confirm` is the Send-Confirm number (LE16 on
    /// the wire, IEEE 802.11-2020 9.4.1.37) then the confirm.
    func wireValue(_ name: String) -> [UInt8]? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let parent = String(name[..<dot])
        switch name[name.index(after: dot)...] {
        case "nonce||tag":
            guard let nonce = hex(parent + ".nonce"), let tag = hex(parent + ".tag") else { return nil }
            return nonce + tag
        case "send_confirm_and_confirm":
            guard let sendConfirm = int(parent + ".send_confirm"), let confirm = hex(parent + ".confirm") else {
                return nil
            }
            return [UInt8(truncatingIfNeeded: sendConfirm), UInt8(truncatingIfNeeded: sendConfirm >> 8)] + confirm
        default:
            if let octets = hex(name) { return octets }
            if let x = hex(name + ".x"), let y = hex(name + ".y") { return x + y }
            return hex(name + ".value")
        }
    }

    func pasn(_ number: Int) -> PASNAuthenticationFrame? {
        if case .pasnAuthentication(let frame) = frames[number - 1].managementFrame?.body { frame } else { nil }
    }

    func sdf(_ number: Int) -> ServiceDiscoveryFrame? {
        if case .serviceDiscovery(let frame) = frames[number - 1].managementFrame?.body { frame } else { nil }
    }

    func naf(_ number: Int) -> NANActionFrame? {
        if case .nanAction(let frame) = frames[number - 1].managementFrame?.body { frame } else { nil }
    }

    /// Every NAN attribute a frame carries: an SDF's or NAF's list, or the attributes of the
    /// NAN elements of a PASN frame.
    func attributes(ofFrame number: Int) -> [NANAttribute] {
        switch frames[number - 1].managementFrame?.body {
        case .serviceDiscovery(let sdf): sdf.attributes
        case .nanAction(let naf): naf.attributes
        case .pasnAuthentication(let pasn):
            pasn.elements.flatMap { element -> [NANAttribute] in
                if case .nan(let nan) = element { nan.attributes } else { [] }
            }
        default: []
        }
    }

    /// The attribute names transcript.json uses, as attribute IDs (nan-wire-reference.md 2.2).
    static let attributeIDs: [String: UInt8] = [
        "SDA": 0x03, "SDEA": 0x0E, "Device Capability": 0x0F, "NAN Availability": 0x12, "NDC": 0x13,
        "NDL": 0x14, "NDL QoS": 0x15, "CSIA": 0x22, "SCIA": 0x23, "Shared Key Descriptor": 0x24,
        "NDPE": 0x29, "DCEA": 0x2A, "NIRA": 0x2B, "NPBA": 0x2C,
    ]
}

/// Finds octet strings in a decoded tree, so that a value can be pinned to the field that
/// carries it rather than to a byte offset.
enum DecodedOctetSearch {
    /// How many times `target` appears: as a `.bytes` field or list item equal to it, or as a
    /// run of adjacent sibling fields whose octets concatenate to it (`.bytes` as they are,
    /// `.unsigned` up to 0xFFFF as the little-endian 16-bit number 802.11 fields use). A run
    /// starts on a non-empty field and ends as soon as it holds enough octets, so each start
    /// counts once.
    static func count(_ target: [UInt8], in fields: [DecodedField]) -> Int {
        var total = 0
        for start in fields.indices {
            if runMatches(target, fields[start...]) { total += 1 }
            total += count(target, in: fields[start].value)
        }
        return total
    }

    static func count(_ target: [UInt8], in value: DecodedValue) -> Int {
        switch value {
        case .fields(let nested): count(target, in: nested)
        case .list(let items): items.reduce(0) { $0 + ($1 == .bytes(target) ? 1 : count(target, in: $1)) }
        default: 0
        }
    }

    private static func runMatches(_ target: [UInt8], _ run: ArraySlice<DecodedField>) -> Bool {
        var collected: [UInt8] = []
        for field in run {
            guard let octets = octets(of: field.value), !(collected.isEmpty && octets.isEmpty) else { return false }
            collected += octets
            if collected.count >= target.count { return collected == target }
        }
        return false
    }

    private static func octets(of value: DecodedValue) -> [UInt8]? {
        switch value {
        case .bytes(let octets): octets
        case .unsigned(let number) where number <= 0xFFFF:
            [UInt8(truncatingIfNeeded: number), UInt8(truncatingIfNeeded: number >> 8)]
        default: nil
        }
    }
}

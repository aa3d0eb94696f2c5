import AwareCore
import AwareWire
import Foundation

/// One frame of a decode run: where it came from and what it turned out to be.
public struct DecodedFrame: Sendable {
    /// 1-based, as Wireshark numbers frames.
    public var number: Int
    /// The capture record, when the frame came from a file.
    public var record: CaptureRecord?
    public var octets: [UInt8]
    public var result: Result<IEEE80211Frame, WireError>

    public init(number: Int, record: CaptureRecord?, octets: [UInt8]) {
        self.number = number
        self.record = record
        self.octets = octets
        do {
            result = .success(try IEEE80211Frame(bytes: octets))
        } catch {
            result = .failure(error)
        }
    }

    /// What kind of frame it is: a NAN frame, another 802.11 frame, or malformed.
    public enum Verdict: Hashable, Sendable {
        case nan
        case notNAN
        case malformed
    }

    public var verdict: Verdict {
        switch result {
        case .failure: .malformed
        case .success(let frame): frame.managementFrame?.body.isNAN == true ? .nan : .notNAN
        }
    }

    /// "SDF Publish", "Beacon (not NAN)", "Data (not NAN)", "malformed".
    public var summary: String {
        switch result {
        case .failure: "malformed"
        case .success(.management(let frame)): frame.summary
        case .success(.notManagement(let frameControl, _)): "\(frameControl.type.name) (not NAN)"
        }
    }

    /// The frame as one JSON object: its number, the capture metadata, then every decoded
    /// field under its own name; a malformed frame has `error` and its octets under `raw`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("frame", .unsigned(UInt64(number))),
            ("length", .unsigned(UInt64(octets.count))),
        ]
        if let record { members.append(("capture", record.decodedFields.json)) }
        switch result {
        case .success(let frame):
            guard case .object(let fields) = frame.decodedFields.json else { break }
            if !fields.contains(where: { $0.0 == "frameKind" }) {
                members.append(("frameKind", .string(summary)))
                members.append(("isNAN", .bool(false)))
            }
            members += fields
        case .failure(let error):
            members.append(("frameKind", .string("malformed")))
            members.append(
                (
                    "error",
                    .object([
                        ("structure", .string(error.structure)),
                        ("field", error.field.map { .string($0) } ?? .null),
                        ("offset", .unsigned(UInt64(error.offset))),
                        ("message", .string(error.description)),
                    ])
                )
            )
            members.append(("raw", .string(HexString.encode(octets))))
        }
        return .object(members)
    }

    /// The frame as text for people: a heading line, then the decoded tree. Times are
    /// shown relative to `start` (the first frame's timestamp), as Wireshark shows them.
    public func text(relativeTo start: UInt64) -> [String] {
        var heading = "Frame \(number): \(octets.count) octets"
        if let record {
            let seconds = Double(Int64(bitPattern: record.timestamp &- start)) / 1e9
            heading += ", t=\(String(format: "%.6f", seconds)) s"
            if let frequency = record.frequencyMHz { heading += ", \(frequency) MHz" }
            if let signal = record.signalDBm { heading += ", \(signal) dBm" }
        }
        heading += " — \(summary)"
        switch result {
        case .success(let frame):
            return [heading] + frame.decodedFields.renderText(indent: 1)
        case .failure(let error):
            return [heading, "    error: \(error)", "    raw: \(HexString.encode(octets))"]
        }
    }
}

extension DecodedValue {
    /// The JSON form: numbers stay numbers, byte strings are lower-case hex, enumerations
    /// are `{"value": n, "name": "..."}`, nested structures are objects.
    public var json: JSONValue {
        switch self {
        case .unsigned(let v): .unsigned(v)
        case .bits(let v, _): .unsigned(v)
        case .flag(let v): .bool(v)
        case .bytes(let v): .string(HexString.encode(v))
        case .text(let v): .string(v)
        case .address(let v): .string(v.description)
        case .named(let v, let name): .object([("value", .unsigned(v)), ("name", .string(name))])
        case .fields(let fields): fields.json
        case .list(let values): .array(values.map(\.json))
        }
    }

    /// The value as one line of text for people, or nil for nested structures and lists.
    public var inlineText: String? {
        switch self {
        case .unsigned(let v): String(v)
        case .bits(let v, let digits): "0x" + Self.hex(v, digits: digits)
        case .flag(let v): v ? "yes" : "no"
        case .bytes(let v): v.isEmpty ? "(empty)" : HexString.encode(v)
        case .text(let v): "\"\(TerminalText.escaped(v))\""
        case .address(let v): v.description
        case .named(let v, let name): "\(name) (\(v))"
        case .fields, .list: nil
        }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let raw = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - raw.count)) + raw
    }
}

extension [DecodedField] {
    /// An object with one member per field, in order.
    public var json: JSONValue { .object(map { ($0.key, $0.value.json) }) }

    /// An indented tree, one field per line, like `tshark -V`.
    public func renderText(indent: Int = 0) -> [String] {
        var lines: [String] = []
        let pad = String(repeating: "    ", count: indent)
        for field in self {
            switch field.value {
            case .fields(let nested):
                lines.append("\(pad)\(field.label)")
                lines += nested.renderText(indent: indent + 1)
            case .list(let values):
                lines.append("\(pad)\(field.label): \(values.count) item\(values.count == 1 ? "" : "s")")
                for (i, value) in values.enumerated() {
                    if case .fields(let nested) = value {
                        // Name the item after its first field when that is an enumeration
                        // ("[0] Service Descriptor (3)"), as attribute and element lists are.
                        var heading = "\(pad)    [\(i)]"
                        if case .named = nested.first?.value, let name = nested.first?.value.inlineText {
                            heading += " \(name)"
                        }
                        lines.append(heading)
                        lines += nested.renderText(indent: indent + 2)
                    } else {
                        lines.append("\(pad)    [\(i)] \(value.inlineText ?? "")")
                    }
                }
            default:
                lines.append("\(pad)\(field.label): \(field.value.inlineText ?? "")")
            }
        }
        return lines
    }
}

/// A named field of a frame that a `corrupt` step changes: a field of a NAN attribute
/// (wherever the attribute travels: an SDF, a NAF, or the NAN element of a PASN frame), or a
/// fixed field of a PASN Authentication frame. Offsets are into the attribute's body (after
/// ID and Length); a negative offset counts from the body's end, for fields that close a
/// variable-length attribute (the NPBA's method bitmap).
public struct FaultField: Hashable, Sendable, CustomStringConvertible {
    public enum Container: Hashable, Sendable {
        /// A NAN attribute, by Attribute ID (nan-wire-reference.md 2.2).
        case nanAttribute(id: UInt8)
        /// The Authentication frame's fixed fields (IEEE 802.11-2020 9.3.3.11).
        case authentication
        /// An element of an Authentication frame, by Element ID.
        case element(id: UInt8)
    }

    public let attribute: String
    public let field: String
    public let container: Container
    /// Into the body; negative counts from its end.
    public let offset: Int
    /// Octets; nil runs to the end of the body.
    public let length: Int?

    public var description: String { "\(attribute).\(field)" }

    /// The field `field` of `attribute`, or nil with what is known (for the error message).
    public static func named(attribute: String, field: String) -> FaultField? {
        guard let entry = catalogue[attribute], let place = entry.fields[field] else { return nil }
        return FaultField(
            attribute: attribute,
            field: field,
            container: entry.container,
            offset: place.offset,
            length: place.length
        )
    }

    /// Every attribute a plan may name, with its fields, for `--help` and errors.
    public static var known: [(attribute: String, fields: [String])] {
        catalogue.keys.sorted().map { ($0, catalogue[$0]!.fields.keys.sorted()) }
    }

    private struct Entry {
        var container: Container
        var fields: [String: (offset: Int, length: Int?)]
    }

    /// Layouts from nan-wire-reference.md (section in each comment) and IEEE 802.11-2020.
    private static let catalogue: [String: Entry] = [
        // 2.4 Service Descriptor Attribute (0x03).
        "service-descriptor": Entry(
            container: .nanAttribute(id: 0x03),
            fields: [
                "service-id": (0, 6), "instance-id": (6, 1), "requestor-instance-id": (7, 1),
                "service-control": (8, 1),
            ]
        ),
        // 2.5 Service Descriptor Extension Attribute (0x0E).
        "service-descriptor-extension": Entry(
            container: .nanAttribute(id: 0x0E),
            fields: ["instance-id": (0, 1), "control": (1, 2)]
        ),
        // 2.10 NDP attribute (0x10).
        "ndp": Entry(
            container: .nanAttribute(id: 0x10),
            fields: [
                "dialog-token": (0, 1), "type-and-status": (1, 1), "reason-code": (2, 1), "initiator-ndi": (3, 6),
                "ndp-id": (9, 1), "ndp-control": (10, 1),
            ]
        ),
        // 2.16 Device Capability Extension (0x2A).
        "device-capability-extension": Entry(
            container: .nanAttribute(id: 0x2A),
            fields: ["capability-info": (0, 2)]
        ),
        // 2.17 NAN Identity Resolution (0x2B).
        "identity-resolution": Entry(
            container: .nanAttribute(id: 0x2B),
            fields: ["cipher-version": (0, 1), "nonce": (1, 8), "tag": (9, 8)]
        ),
        // 2.18 NAN Pairing Bootstrapping (0x2C); the method bitmap closes the attribute.
        "pairing-bootstrapping": Entry(
            container: .nanAttribute(id: 0x2C),
            fields: ["dialog-token": (0, 1), "type-and-status": (1, 1), "reason-code": (2, 1), "methods": (-2, 2)]
        ),
        // IEEE 802.11-2020 9.3.3.11: Authentication Algorithm, Transaction Sequence, Status.
        "authentication": Entry(
            container: .authentication,
            fields: ["algorithm": (0, 2), "transaction-sequence": (2, 2), "status-code": (4, 2)]
        ),
        // IEEE 802.11-2020 9.4.2.305 (MIC element, ID 140): the MIC closes the PASN frames 2 and 3.
        "mic": Entry(container: .element(id: 140), fields: ["mic": (0, nil)]),
    ]
}

extension FaultField {
    /// Where the field sits in `frame`, in the `occurrence`-th (1-based) container that has
    /// it; nil when the frame has no such field (it is then carried unchanged).
    ///
    /// A plain walk over the frame's length fields, each bounded by its parent, so a frame of
    /// any shape answers nil rather than a range outside it.
    public func locate(in frame: [UInt8], occurrence: Int = 1) -> Range<Int>? {
        // Management header: 24 octets (IEEE 802.11-2020 9.3.3.2); type 0 only.
        guard frame.count > 24, (frame[0] >> 2) & 0x03 == 0 else { return nil }
        let subtype = frame[0] >> 4
        var bodies: [Range<Int>] = []
        switch container {
        case .nanAttribute(let id):
            for list in Self.attributeLists(in: frame, subtype: subtype) {
                bodies += Self.attributeBodies(of: id, in: frame, list: list)
            }
        case .authentication:
            // Subtype 11 is Authentication; the fixed fields are its first 6 octets.
            if subtype == 11, frame.count >= 30 { bodies = [24..<30] }
        case .element(let id):
            if subtype == 11, frame.count >= 30 {
                bodies = Self.elements(in: frame, from: 30).filter { $0.id == id }.map(\.body)
            }
        }
        guard occurrence >= 1, occurrence <= bodies.count else { return nil }
        let body = bodies[occurrence - 1]
        let start = offset >= 0 ? body.lowerBound + offset : body.upperBound + offset
        let end = length.map { start + $0 } ?? body.upperBound
        guard start >= body.lowerBound, end <= body.upperBound, start < end else { return nil }
        return start..<end
    }

    /// Where NAN attributes follow each other in `frame`: after an SDF's or NAF's header
    /// (Category 4, Action 9, OUI 50-6F-9A, OUI type 0x13 or 0x18, and the NAF's subtype;
    /// nan-wire-reference.md 1.1, 1.2), and inside each NAN element of an Authentication frame.
    static func attributeLists(in frame: [UInt8], subtype: UInt8) -> [Range<Int>] {
        let wfa: [UInt8] = [0x50, 0x6F, 0x9A]
        switch subtype {
        case 13, 14:  // Action, Action No Ack
            guard frame.count >= 30, frame[24] == 4, frame[25] == 9, Array(frame[26..<29]) == wfa else { return [] }
            if frame[29] == 0x13 { return [30..<frame.count] }
            if frame[29] == 0x18, frame.count >= 31 { return [31..<frame.count] }
            return []
        case 11:  // Authentication: the NAN element (221, 50-6F-9A type 0x13)
            guard frame.count >= 30 else { return [] }
            return elements(in: frame, from: 30).compactMap { element in
                let body = element.body
                guard element.id == 221, body.count >= 4, Array(frame[body.lowerBound..<body.lowerBound + 3]) == wfa,
                    frame[body.lowerBound + 3] == 0x13
                else { return nil }
                return (body.lowerBound + 4)..<body.upperBound
            }
        default:
            return []
        }
    }

    /// The bodies of attributes `id` in `list` (ID 1, Length 2 little-endian, body).
    static func attributeBodies(of id: UInt8, in frame: [UInt8], list: Range<Int>) -> [Range<Int>] {
        var bodies: [Range<Int>] = []
        var position = list.lowerBound
        while position + 3 <= list.upperBound {
            let length = Int(frame[position + 1]) | Int(frame[position + 2]) << 8
            let end = position + 3 + length
            guard end <= list.upperBound else { break }
            if frame[position] == id { bodies.append((position + 3)..<end) }
            position = end
        }
        return bodies
    }

    /// The elements from `start` to the end of `frame` (ID 1, Length 1, body).
    static func elements(in frame: [UInt8], from start: Int) -> [(id: UInt8, body: Range<Int>)] {
        var found: [(id: UInt8, body: Range<Int>)] = []
        var position = start
        while position + 2 <= frame.count {
            let end = position + 2 + Int(frame[position + 1])
            guard end <= frame.count else { break }
            found.append((frame[position], (position + 2)..<end))
            position = end
        }
        return found
    }
}

/// How a `corrupt` step changes a field: XOR with a pattern (repeated over the field), or set
/// it to given octets (as many as the field has).
public enum FaultFieldChange: Hashable, Sendable {
    case xor([UInt8])
    case set([UInt8])

    /// `frame` with `range` changed; nil when `set` does not fit the field.
    func apply(to frame: [UInt8], at range: Range<Int>) -> [UInt8]? {
        var changed = frame
        switch self {
        case .xor(let pattern):
            guard !pattern.isEmpty else { return nil }
            for (step, index) in range.enumerated() { changed[index] ^= pattern[step % pattern.count] }
        case .set(let octets):
            guard octets.count == range.count else { return nil }
            changed.replaceSubrange(range, with: octets)
        }
        return changed
    }
}

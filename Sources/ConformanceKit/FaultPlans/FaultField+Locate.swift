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

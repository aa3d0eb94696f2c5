import AwareWire

/// Decodes every frame of an input and counts what it found, for `aware-conform decode`.
public struct DecodeRun: Sendable {
    public var frames: [DecodedFrame]

    public init(_ input: DecodeInput) {
        frames = input.frames.map { DecodedFrame(number: $0.number, record: $0.record, octets: $0.octets) }
    }

    public var nanCount: Int { frames.count { $0.verdict == .nan } }
    public var otherCount: Int { frames.count { $0.verdict == .notNAN } }
    public var malformedCount: Int { frames.count { $0.verdict == .malformed } }

    /// "37 frames: 37 NAN, 0 not NAN, 0 malformed"
    public var summary: String {
        "\(frames.count) frame\(frames.count == 1 ? "" : "s"): \(nanCount) NAN, \(otherCount) not NAN, "
            + "\(malformedCount) malformed"
    }
}

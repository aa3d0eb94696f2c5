import AwareAnalysis
import AwareCore
import AwareWire

/// The decoder's robustness contract, checked one input at a time: every octet string is
/// either rejected with a ``WireError`` or decodes to a value that writes back to exactly
/// those octets and whose decoded fields render as JSON and text. A trap is the other
/// possible answer; it ends the process, which is how a run reports it.
///
/// Inputs are drawn from a corpus by index: input `i` of seed `s` depends on nothing else,
/// so one failing input is rebuilt from its seed and index alone, and a run can be split
/// over threads without changing a single octet.
public struct DecoderRobustness: Sendable {
    /// What an input is and which decoder entry point takes it.
    public enum Kind: String, Sendable, CaseIterable {
        /// A corpus frame after ``FrameMutator`` (1 to 4 mutations, or noise): `IEEE80211Frame(bytes:)`.
        case mutatedFrame
        /// A frame whose header is right and whose attributes or elements are random
        /// type-length-value runs: `IEEE80211Frame(bytes:)`.
        case randomFrame
        /// A mutated link type 127 packet (radiotap header, frame, FCS), in a one-record
        /// pcap whose lengths are right: `CaptureReader.read(bytes:)`, then the frame.
        case radiotapPacket
        /// A mutated pcap or pcapng file: `CaptureReader.read(bytes:)`, then every frame.
        case captureFile
    }

    /// One input to the decoder.
    public struct Input: Sendable {
        public var kind: Kind
        public var index: Int
        public var bytes: [UInt8]
    }

    /// How the decoder answered.
    public enum Outcome: Hashable, Sendable {
        /// The input decoded and every property held.
        case decoded
        /// The decoder threw a ``WireError``.
        case rejected
        /// A property failed: the text says which.
        case violated(String)
    }

    /// Counts of outcomes by kind.
    public struct Tally: Hashable, Sendable {
        public private(set) var decoded: [Kind: Int] = [:]
        public private(set) var rejected: [Kind: Int] = [:]
        public private(set) var violated: [Kind: Int] = [:]

        public init() {}

        public mutating func record(_ outcome: Outcome, kind: Kind) {
            switch outcome {
            case .decoded: decoded[kind, default: 0] += 1
            case .rejected: rejected[kind, default: 0] += 1
            case .violated: violated[kind, default: 0] += 1
            }
        }

        public mutating func add(_ other: Tally) {
            for (kind, count) in other.decoded { decoded[kind, default: 0] += count }
            for (kind, count) in other.rejected { rejected[kind, default: 0] += count }
            for (kind, count) in other.violated { violated[kind, default: 0] += count }
        }

        public func total(_ kinds: [Kind] = Kind.allCases) -> Int {
            kinds.reduce(0) { $0 + decoded[$1, default: 0] + rejected[$1, default: 0] + violated[$1, default: 0] }
        }

        public func decodedCount(_ kinds: [Kind] = Kind.allCases) -> Int {
            kinds.reduce(0) { $0 + decoded[$1, default: 0] }
        }

        public func rejectedCount(_ kinds: [Kind] = Kind.allCases) -> Int {
            kinds.reduce(0) { $0 + rejected[$1, default: 0] }
        }

        public func violatedCount(_ kinds: [Kind] = Kind.allCases) -> Int {
            kinds.reduce(0) { $0 + violated[$1, default: 0] }
        }
    }

    /// The kinds that count as frames (the capture files are counted apart).
    public static let frameKinds: [Kind] = [.mutatedFrame, .randomFrame, .radiotapPacket]

    public let seed: UInt64
    public let frames: [[UInt8]]
    public let radiotapPackets: [[UInt8]]
    public let captureFiles: [[UInt8]]

    /// `frames` are well-formed frames (``FrameCorpus/frames`` plus captured ones); the
    /// radiotap packets and capture files are built from them.
    public init(frames: [[UInt8]], seed: UInt64) {
        precondition(!frames.isEmpty, "a robustness run needs at least one frame")
        self.seed = seed
        self.frames = frames
        radiotapPackets = CaptureCorpus.radiotapPackets(frames: frames)
        captureFiles = CaptureCorpus.captureFiles(frames: frames)
    }

    /// The generator of input `index` of `stream`: independent of every other input.
    private func generator(stream: UInt64, index: Int) -> SeededGenerator {
        var mixer = SeededGenerator(seed: seed ^ (stream &* 0xD6E8_FEB8_6659_FD93))
        let base = mixer.next()
        return SeededGenerator(seed: base ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// Frame input `index`: 70 % mutated frames, 12 % random frames, 18 % radiotap packets.
    public func frameInput(at index: Int) -> Input {
        var generator = generator(stream: 1, index: index)
        let roll = generator.next() % 100
        let mutationSeed = generator.next()
        switch roll {
        case 0..<70:
            var mutator = FrameMutator(corpus: frames, seed: mutationSeed)
            return Input(kind: .mutatedFrame, index: index, bytes: mutator.next())
        case 70..<82:
            var random = RandomFrameBuilder(generator: SeededGenerator(seed: mutationSeed), frames: frames)
            return Input(kind: .randomFrame, index: index, bytes: random.frame())
        default:
            var mutator = FrameMutator(corpus: radiotapPackets, seed: mutationSeed)
            return Input(kind: .radiotapPacket, index: index, bytes: mutator.next())
        }
    }

    /// Capture file input `index`: a mutated pcap or pcapng file.
    public func captureFileInput(at index: Int) -> Input {
        var generator = generator(stream: 2, index: index)
        var mutator = FrameMutator(corpus: captureFiles, seed: generator.next())
        return Input(kind: .captureFile, index: index, bytes: mutator.next())
    }

    /// Runs the input through its decoder entry point and checks the contract.
    public static func check(_ input: Input) -> Outcome {
        switch input.kind {
        case .mutatedFrame, .randomFrame: checkFrame(input.bytes)
        case .radiotapPacket: checkRadiotapPacket(input.bytes)
        case .captureFile: checkCaptureFile(input.bytes)
        }
    }

    /// `IEEE80211Frame(bytes:)`: a WireError, or a value that writes back byte for byte and
    /// renders.
    public static func checkFrame(_ bytes: [UInt8]) -> Outcome {
        let frame: IEEE80211Frame
        do {
            frame = try IEEE80211Frame(bytes: bytes)
        } catch {
            return .rejected
        }
        let written = frame.wireBytes
        guard written == bytes else {
            return .violated("decoded, but re-serializes to \(HexString.encode(written))")
        }
        let fields = frame.decodedFields
        guard !fields.json.serialized.isEmpty, !fields.renderText().isEmpty else {
            return .violated("decoded fields render empty")
        }
        return .decoded
    }

    /// The packet data of one link type 127 record, read from a pcap as a sniffer writes it.
    public static func checkRadiotapPacket(_ packet: [UInt8]) -> Outcome {
        let file = CaptureCorpus.pcap(linkType: .ieee80211Radiotap, packets: [packet])
        let records: [CaptureRecord]
        do {
            records = try CaptureReader.read(bytes: file)
        } catch {
            return .rejected
        }
        guard records.count == 1, let record = records.first else {
            return .violated("one packet read as \(records.count) records")
        }
        let rewritten = record.packetData(for: .ieee80211Radiotap)
        guard rewritten == packet else {
            return .violated("record re-encapsulates to \(HexString.encode(rewritten))")
        }
        if let radiotap = record.radiotap, radiotap.decodedFields.json.serialized.isEmpty {
            return .violated("radiotap fields render empty")
        }
        return checkFrame(record.frame)
    }

    /// A whole capture file: a WireError, or records that survive being written and read
    /// again, each of whose frames meets the frame contract. The file counts as decoded
    /// when it was read, whatever its frames did. Either way, the stream reader (decode's and
    /// analyze's), fed the file in chunks, reads the records and the error the whole-buffer
    /// reader reads.
    public static func checkCaptureFile(_ bytes: [UInt8]) -> Outcome {
        let whole = CaptureReader.readAvailable(bytes: bytes)
        let streamed = readStreaming(bytes, chunkLength: 1 + bytes.count % 61)
        guard streamed.records == whole.records, streamed.error == whole.error else {
            return .violated(
                "read in chunks: \(streamed.records.count) records, then \(String(describing: streamed.error)); "
                    + "read whole: \(whole.records.count), then \(String(describing: whole.error))"
            )
        }
        let records: [CaptureRecord]
        do {
            records = try CaptureReader.read(bytes: bytes)
        } catch {
            return .rejected
        }
        let rewritten: [UInt8]
        switch CaptureReader.format(of: bytes) {
        case .pcap?:
            let linkType = records.first?.linkType ?? .ieee80211
            rewritten = PcapFile(linkType: linkType, records: records).bytes
        case .pcapng?, nil:
            rewritten = PcapngFile(records: records).bytes
        }
        let again: [CaptureRecord]
        do {
            again = try CaptureReader.read(bytes: rewritten)
        } catch {
            return .violated("the records read, written again, fail to read: \(error)")
        }
        guard again.count == records.count else {
            return .violated("\(records.count) records read, written again, read as \(again.count)")
        }
        for (number, (first, second)) in zip(records, again).enumerated() {
            guard first.linkType == second.linkType, first.radiotap == second.radiotap,
                first.frame == second.frame, first.frameCheckSequence == second.frameCheckSequence
            else {
                return .violated("record \(number + 1) changes when written and read again")
            }
            guard !first.decodedFields.json.serialized.isEmpty else {
                return .violated("record \(number + 1) fields render empty")
            }
            guard first.linkType == .ieee80211 || first.linkType == .ieee80211Radiotap else { continue }
            if case .violated(let reason) = checkFrame(first.frame) {
                return .violated("record \(number + 1): \(reason)")
            }
        }
        return .decoded
    }

    /// The records and the first error of `bytes`, handed to a ``CaptureStreamReader`` in
    /// chunks of `chunkLength` octets (also what the stream reader's own tests compare).
    public static func readStreaming(
        _ bytes: [UInt8],
        chunkLength: Int
    ) -> (records: [CaptureRecord], error: WireError?) {
        var reader = CaptureStreamReader()
        var records: [CaptureRecord] = []
        var next = 0
        while !reader.isFinished {
            do {
                while let record = try reader.next() { records.append(record) }
            } catch {
                return (records, error)
            }
            if next < bytes.count {
                reader.append(bytes[next..<min(bytes.count, next + chunkLength)])
                next += chunkLength
            } else {
                reader.endInput()
            }
        }
        return (records, nil)
    }
}

import AwareCore
import AwareWire

/// Derives malformed frames from good ones, for robustness runs: the decoder must answer
/// every one of them with a value or a `WireError`, never a trap.
///
/// Mutations favour the places parsers get wrong: length fields (set to 0, 255, off by
/// one), truncation at every depth, random octets and bit flips, insertions and splices
/// of two frames. A seed reproduces the exact sequence.
public struct FrameMutator: Sendable {
    public private(set) var generator: SeededGenerator
    private let corpus: [[UInt8]]

    /// `corpus` holds well-formed frames to start from; it must not be empty.
    public init(corpus: [[UInt8]], seed: UInt64) {
        precondition(!corpus.isEmpty, "a mutator needs at least one frame to mutate")
        self.corpus = corpus
        generator = SeededGenerator(seed: seed)
    }

    /// The next frame: a mutation of a corpus frame, or now and then pure noise.
    public mutating func next() -> [UInt8] {
        let roll = generator.next() % 100
        if roll < 3 {
            let count = Int(generator.next() % 300)
            return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
        var frame = corpus[Int(generator.next() % UInt64(corpus.count))]
        let rounds = 1 + Int(generator.next() % 4)
        for _ in 0..<rounds { mutate(&frame) }
        return frame
    }

    private mutating func index(in frame: [UInt8]) -> Int {
        frame.isEmpty ? 0 : Int(generator.next() % UInt64(frame.count))
    }

    private mutating func mutate(_ frame: inout [UInt8]) {
        guard !frame.isEmpty else {
            frame = [UInt8(truncatingIfNeeded: generator.next())]
            return
        }
        switch generator.next() % 9 {
        case 0:  // flip one bit
            let i = index(in: frame)
            frame[i] ^= 1 << UInt8(generator.next() % 8)
        case 1:  // random octet
            frame[index(in: frame)] = UInt8(truncatingIfNeeded: generator.next())
        case 2:  // an interesting value where a length field may sit
            let interesting: [UInt8] = [0x00, 0x01, 0x02, 0x05, 0x06, 0x7F, 0x80, 0xFE, 0xFF]
            frame[index(in: frame)] = interesting[Int(generator.next() % UInt64(interesting.count))]
        case 3:  // nudge an octet by one
            let i = index(in: frame)
            frame[i] = generator.next() % 2 == 0 ? frame[i] &+ 1 : frame[i] &- 1
        case 4:  // truncate
            frame.removeLast(Int(generator.next() % UInt64(frame.count)))
        case 5:  // delete a run
            let start = index(in: frame)
            let count = min(frame.count - start, 1 + Int(generator.next() % 8))
            frame.removeSubrange(start..<(start + count))
        case 6:  // insert a run
            let at = index(in: frame)
            let count = 1 + Int(generator.next() % 8)
            frame.insert(contentsOf: (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }, at: at)
        case 7:  // splice the tail of another frame
            let other = corpus[Int(generator.next() % UInt64(corpus.count))]
            let cut = index(in: frame)
            let from = other.isEmpty ? 0 : Int(generator.next() % UInt64(other.count))
            frame = Array(frame[..<cut]) + Array(other[from...])
        default:  // a little-endian 16-bit length set to something near the remaining size
            let i = index(in: frame)
            if i + 1 < frame.count {
                let remaining = frame.count - i - 2
                let delta = Int(generator.next() % 5) - 2
                let value = UInt16(truncatingIfNeeded: max(0, remaining + delta))
                frame[i] = UInt8(value & 0xFF)
                frame[i + 1] = UInt8(value >> 8)
            }
        }
    }
}

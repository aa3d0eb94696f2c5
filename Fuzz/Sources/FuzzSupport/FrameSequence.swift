/// A fuzz input cut into a setup octet and a sequence of frames, each after a pause: how the
/// protocol targets read libFuzzer's octets.
///
/// Layout: `setup`, then records of `pause, flags, length (LE16), frame`. The last record
/// takes what is left when its length runs past the end, so every input is a sequence.
/// `pause` below 0xF0 is twice that many milliseconds (up to about one discovery-window
/// period); from 0xF0, its low four bits plus one times five seconds (5 to 80 s: comeback
/// delays, retransmission timeouts, a lockout's end). Long pauses are the rare octets on
/// purpose: every virtual second costs the accessory's beacons and discovery windows, and a
/// random octet should mostly mean "soon". Flag bit 0 writes
/// the harness's station address into Address 1, so that mutations elsewhere in a frame
/// still reach the machines behind the address check; bit 1 has the harness's honest phone
/// start a pairing instead (the accessory target's HonestPhone).
public struct FrameSequence: Sendable {
    public struct Record: Sendable {
        public var pause: UInt8
        public var flags: UInt8
        public var frame: [UInt8]

        public init(pause: UInt8, flags: UInt8 = 0, frame: [UInt8]) {
            self.pause = pause
            self.flags = flags
            self.frame = frame
        }

        /// The pause in nanoseconds of virtual time.
        public var pauseNanoseconds: Int64 {
            pause < 0xF0 ? Int64(pause) * 2_000_000 : Int64(pause & 0x0F + 1) * 5_000_000_000
        }

        public var addressesHarnessStation: Bool { flags & 0x01 != 0 }

        /// Flag bit 1: instead of the record's frame, the harness's honest phone starts PASN
        /// with the PIN the accessory last showed.
        public var startsHonestPairing: Bool { flags & 0x02 != 0 }
    }

    /// Records beyond this many are ignored: a longer input explores nothing a shorter one
    /// cannot, and each record costs virtual time.
    public static let maximumRecords = 64

    public var setup: UInt8
    public var records: [Record]

    public init(setup: UInt8, records: [Record]) {
        self.setup = setup
        self.records = records
    }

    public init(_ bytes: [UInt8]) {
        setup = bytes.first ?? 0
        records = []
        var index = 1
        while index + 4 <= bytes.count, records.count < Self.maximumRecords {
            let length = Int(bytes[index + 2]) | Int(bytes[index + 3]) << 8
            let start = index + 4
            let end = min(start + length, bytes.count)
            records.append(Record(pause: bytes[index], flags: bytes[index + 1], frame: Array(bytes[start..<end])))
            index = end
        }
    }

    /// The input that reads back as this sequence.
    public var bytes: [UInt8] {
        var bytes = [setup]
        for record in records {
            let length = min(record.frame.count, Int(UInt16.max))
            bytes += [record.pause, record.flags, UInt8(length & 0xFF), UInt8(length >> 8)]
            bytes += record.frame.prefix(length)
        }
        return bytes
    }
}

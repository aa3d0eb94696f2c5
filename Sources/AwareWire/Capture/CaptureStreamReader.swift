import AwareCore

/// Reads a capture (pcap or pcapng, told apart by its magic) from octets handed in as they
/// come, a record at a time, holding no more than the block being read: a capture of
/// gigabytes is read in the memory of its largest block.
///
/// The caller reads its input in chunks of any size and loops:
///
///     while let record = try reader.next() { use(record) }   // nil: it needs more octets
///     reader.append(chunk)                                  // or reader.endInput() at the end
///
/// until ``isFinished``. The blocks are parsed by the same parsers as ``PcapFile`` and
/// ``PcapngFile`` read a whole buffer with, so the records are the same, and an error is the
/// same error at the same file offset, wherever the chunks happened to end. A length field
/// over ``CaptureReader/maximumBlockLength`` is refused as soon as it is read, without
/// waiting for (or holding) the octets it claims. No I/O: octets in, records out.
public struct CaptureStreamReader: Sendable {
    /// What reads the blocks, once the magic has told the format.
    private enum Parser: Sendable {
        case pcap(PcapParser)
        case pcapng(PcapngParser)
    }

    /// Octets handed in and not yet read; `buffer[position...]` starts at file offset
    /// `bufferOffset + position`.
    private var buffer: [UInt8] = []
    private var position = 0
    private var bufferOffset = 0
    private var inputEnded = false
    private var parser: Parser?
    /// The input was read to its end, or an error was thrown: ``next()`` has nothing more.
    public private(set) var isFinished = false

    public init() {}

    /// The file's format, once its first four octets are in.
    public var format: CaptureReader.Format? {
        switch parser {
        case .pcap?: .pcap
        case .pcapng?: .pcapng
        case nil: nil
        }
    }

    /// The file offset of the next octet to read: everything before it has been read.
    public var offset: Int { bufferOffset + position }

    /// The octets handed in that wait to be read: never much more than one block and one chunk.
    public var bufferedCount: Int { buffer.count - position }

    /// Hands in the next octets of the input.
    public mutating func append(_ octets: some Collection<UInt8>) {
        guard !inputEnded else { return }
        // Drop what has been read before growing the buffer, so that it holds the unread rest
        // of one block and the new chunk, not the file.
        if position > 0 {
            buffer.removeSubrange(0..<position)
            bufferOffset += position
            position = 0
        }
        buffer.append(contentsOf: octets)
    }

    /// Says that the input has ended: what is left must be whole blocks.
    public mutating func endInput() {
        inputEnded = true
    }

    /// The next record; nil when the reader needs more octets (``append(_:)``, or
    /// ``endInput()``) or, once ``isFinished``, at the end. Throws the first error in the
    /// input, with its file offset; after it, the reader is finished.
    public mutating func next() throws(WireError) -> CaptureRecord? {
        while !isFinished {
            let available = buffer[position...]
            guard let parser else {
                if available.count < 4 && !inputEnded { return nil }
                try recognise(available)
                continue
            }
            var reader = WireReader(available, structure: "capture file", startingAt: offset)
            do throws(WireError) {
                if available.isEmpty {
                    guard inputEnded else { return nil }
                    isFinished = true
                    if case .pcapng(let pcapng) = parser { try pcapng.finish(reader) }
                    return nil
                }
                let needed: Int
                switch parser {
                case .pcap(let pcap): needed = pcap.nextPieceLength(available)
                case .pcapng(let pcapng): needed = pcapng.nextPieceLength(available)
                }
                // Short of a whole block, wait for more, unless there is no more: then the
                // parser reads what there is and reports where it falls short, as it does at
                // the end of a whole buffer.
                if available.count < needed && !inputEnded { return nil }
                let record: CaptureRecord?
                switch parser {
                case .pcap(var pcap):
                    record = try pcap.read(from: &reader)
                    self.parser = .pcap(pcap)
                case .pcapng(var pcapng):
                    record = try pcapng.readBlock(from: &reader)
                    self.parser = .pcapng(pcapng)
                }
                position = reader.position
                if let record { return record }
            } catch {
                isFinished = true
                throw error
            }
        }
        return nil
    }

    /// Tells the format from the magic, as ``CaptureReader/read(bytes:)`` does, with its errors.
    private mutating func recognise(_ available: ArraySlice<UInt8>) throws(WireError) {
        if PcapngFile.isPcapng(available) {
            parser = .pcapng(PcapngParser())
        } else if PcapFile.magic(available) != nil {
            parser = .pcap(PcapParser())
        } else {
            isFinished = true
            let reader = WireReader(available, structure: "capture file", startingAt: offset)
            if available.count < 4 {
                throw reader.error(.truncated(need: 4, have: available.count), field: "magic")
            }
            throw reader.error(
                .invalidValue("magic \(HexString.encode(available.prefix(4))) is neither pcap nor pcapng"),
                field: "magic"
            )
        }
    }
}

import AwareCore
import AwareWire

/// A capture file (pcap or pcapng, told apart by its magic, not its name) read record by
/// record, for `decode` and `analyze`: the file is read in 64 KiB chunks through a
/// ``CaptureStreamReader``, so memory is one chunk and one block whatever the file's size, and
/// the records before an error have been handed out when the error is thrown.
public final class CaptureFileReader {
    public let path: String
    public let format: CaptureReader.Format
    /// The records handed out so far.
    public private(set) var recordCount = 0
    private let file: FileChunks
    private var stream = CaptureStreamReader()

    /// Opens `path` and reads its magic.
    public init(path: String) throws(CaptureFileError) {
        let file: FileChunks
        do {
            file = try FileChunks(path: path)
        } catch {
            throw .unreadable(reason: error.reason)
        }
        // A read may give fewer octets than asked (a pipe): the magic is the first four octets
        // of the input, however many reads they take.
        var start: [UInt8] = []
        while start.count < 4 {
            let chunk: [UInt8]
            do {
                chunk = try file.next()
            } catch {
                throw .unreadable(reason: error.reason)
            }
            if chunk.isEmpty { break }
            start += chunk
        }
        guard let format = CaptureReader.format(of: start) else {
            throw .notACapture(firstOctets: Array(start.prefix(4)))
        }
        self.path = path
        self.format = format
        self.file = file
        stream.append(start)
    }

    /// The file offset of the next octet to read.
    public var offset: Int { stream.offset }

    /// The octets read from the file so far.
    public var octetsRead: Int { file.octetsRead }

    /// The next record, or nil at the end of the file. Throws the first error in the file (its
    /// offset counted from the start of the file) or the system's refusal to read on.
    public func next() throws(CaptureFileError) -> CaptureRecord? {
        while true {
            do {
                if let record = try stream.next() {
                    recordCount += 1
                    return record
                }
            } catch {
                throw .malformed(error)
            }
            if stream.isFinished { return nil }
            let chunk: [UInt8]
            do {
                chunk = try file.next()
            } catch {
                throw .unreadable(reason: error.reason)
            }
            if chunk.isEmpty { stream.endInput() } else { stream.append(chunk) }
        }
    }
}

/// Why a capture file could not be read on.
public enum CaptureFileError: Error, Hashable, Sendable {
    /// The system refused to open or read the file; `reason` is its own word (strerror(3)).
    case unreadable(reason: String)
    /// The file does not start with a pcap or pcapng magic number (empty: the file is).
    case notACapture(firstOctets: [UInt8])
    /// The file is a capture, malformed at the error's offset.
    case malformed(WireError)
}

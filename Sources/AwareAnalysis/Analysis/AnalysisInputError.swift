import AwareCore
import AwareWire

/// Why `aware-conform analyze` could not analyze its input at all (as opposed to findings in
/// it): each case names the file and, for malformed content, the octet offset.
public enum AnalysisInputError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchFile(path: String)
    case unreadable(path: String, reason: String)
    case notACapture(path: String, firstOctets: [UInt8])
    case malformedCapture(path: String, error: WireError)

    /// Capture records from file octets; the path is only for the error.
    public static func records(
        of bytes: [UInt8],
        path: String
    ) throws(AnalysisInputError) -> (
        format: CaptureReader.Format, records: [CaptureRecord]
    ) {
        guard let format = CaptureReader.format(of: bytes) else {
            throw .notACapture(path: path, firstOctets: Array(bytes.prefix(4)))
        }
        do {
            return (format, try CaptureReader.read(bytes: bytes))
        } catch {
            throw .malformedCapture(path: path, error: error)
        }
    }

    /// The records a capture yields up to its first error, with that error: a capture cut short
    /// (a sniffer killed mid-write) still has frames worth analyzing. Throws when no record at all
    /// can be read.
    public static func availableRecords(
        of bytes: [UInt8],
        path: String
    ) throws(AnalysisInputError) -> (
        format: CaptureReader.Format, records: [CaptureRecord], stoppedBy: AnalysisInputError?
    ) {
        guard let format = CaptureReader.format(of: bytes) else {
            throw .notACapture(path: path, firstOctets: Array(bytes.prefix(4)))
        }
        let (records, error) = CaptureReader.readAvailable(bytes: bytes)
        if let error, records.isEmpty { throw .malformedCapture(path: path, error: error) }
        return (format, records, error.map { .malformedCapture(path: path, error: $0) })
    }

    public var description: String {
        switch self {
        case .noSuchFile(let path):
            "\(path): no such file"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .notACapture(let path, let octets):
            "\(path) at offset 0: not a pcap or pcapng capture (it starts with \(HexString.encode(octets)))"
        case .malformedCapture(let path, let error):
            "\(path) at offset \(error.offset): malformed capture: \(error)"
        }
    }
}

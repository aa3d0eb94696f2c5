import AwareWire

/// What a ``FileClient`` reports.
public enum FileTransferEvent: Hashable, Sendable {
    /// The server accepted the request: the file's size and the digest it must hash to.
    case header(FileHeader)
    /// Octets received so far (from offset 0, across resumes) and their share of the file.
    case progress(bytes: UInt64, fraction: Double)
    case completed(FileTransferResult)
    /// The server refused the request (unknown file, bad offset).
    case refused(FileError)
    /// The transfer stopped; what was received is kept and ``FileClient/resume(now:)`` continues.
    case interrupted(FileTransferInterruption, receivedBytes: UInt64)
}

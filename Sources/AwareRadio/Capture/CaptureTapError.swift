/// Why a capture could not be set up or written.
public enum CaptureTapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name ends in neither `.pcap` nor `.pcapng` and no format was given.
    case unknownFormat(path: String)
    /// The file cannot be written there; `reason` says why.
    case unwritable(path: String, reason: String)
    /// ``CaptureTap/write()`` on a tap made without a path.
    case noPath

    public var description: String {
        switch self {
        case .unknownFormat(let path):
            "cannot tell the capture format of \(path): name it .pcap or .pcapng"
        case .unwritable(let path, let reason):
            "cannot write the capture \(path): \(reason)"
        case .noPath:
            "this capture tap has no file to write: give it a path"
        }
    }
}

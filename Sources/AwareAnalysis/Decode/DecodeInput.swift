import AwareCore
import AwareWire
import Foundation

/// What `aware-conform decode` was asked to read: one 802.11 frame given as hex, or a
/// capture file (pcap or pcapng, told apart by its magic, not its name).
public enum DecodeInput: Sendable {
    /// One 802.11 frame from Frame Control on, without FCS.
    case frame([UInt8])
    /// Every record of a capture file.
    case capture(path: String, format: CaptureReader.Format, records: [CaptureRecord])

    /// Resolves a command-line argument: an existing file is read as a capture; anything
    /// else must be hex digits (spaces, colons and a leading `0x` are allowed).
    public static func load(_ argument: String) throws(DecodeInputError) -> DecodeInput {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw .notACapture(path: argument, firstOctets: [])
            }
            let bytes: [UInt8]
            do {
                bytes = try FileContents.read(argument)
            } catch {
                throw .unreadable(path: argument, reason: error.reason)
            }
            guard let format = CaptureReader.format(of: bytes) else {
                throw .notACapture(path: argument, firstOctets: Array(bytes.prefix(4)))
            }
            do {
                return .capture(path: argument, format: format, records: try CaptureReader.read(bytes: bytes))
            } catch {
                throw .malformedCapture(path: argument, error: error)
            }
        }
        guard let bytes = HexString.decode(argument) else {
            throw .neitherFileNorHex(argument)
        }
        guard !bytes.isEmpty else { throw .neitherFileNorHex(argument) }
        return .frame(bytes)
    }

    /// The frames to decode, numbered from 1 as Wireshark numbers them.
    public var frames: [(number: Int, record: CaptureRecord?, octets: [UInt8])] {
        switch self {
        case .frame(let octets):
            return [(1, nil, octets)]
        case .capture(_, _, let records):
            return records.enumerated().map { ($0.offset + 1, $0.element, $0.element.frame) }
        }
    }
}

/// Why the input could not be read at all (as opposed to a frame in it being malformed).
/// `unreadable` is the system refusing an existing file (exit status 3, as in `analyze`); the
/// others are the input's own fault (2).
public enum DecodeInputError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notACapture(path: String, firstOctets: [UInt8])
    case malformedCapture(path: String, error: WireError)
    case neitherFileNorHex(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .notACapture(let path, let octets) where octets.isEmpty:
            "\(path) is not a pcap or pcapng capture (it is a directory or empty)"
        case .notACapture(let path, let octets):
            "\(path) is not a pcap or pcapng capture (it starts with \(HexString.encode(octets)))"
        case .malformedCapture(let path, let error):
            "\(path): malformed capture: \(error)"
        case .neitherFileNorHex(let argument):
            "\"\(argument.prefix(60))\" is neither an existing file nor hex octets of one 802.11 frame"
        }
    }
}

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

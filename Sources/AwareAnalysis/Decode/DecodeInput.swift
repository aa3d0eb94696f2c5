import AwareCore
import AwareWire
import Foundation

/// What `aware-conform decode` was asked to read: one 802.11 frame given as hex, or a
/// capture file (pcap or pcapng, told apart by its magic, not its name), read as it is decoded.
public enum DecodeInput {
    /// One 802.11 frame from Frame Control on, without FCS.
    case frame([UInt8])
    /// A capture file, opened, its format known, its records still to read.
    case capture(CaptureFileReader)

    /// Resolves a command-line argument: an existing file is opened as a capture; anything
    /// else must be hex digits (spaces, colons and a leading `0x` are allowed). Only the
    /// file's magic is read here: a capture's records come one by one from ``DecodeRun``.
    public static func load(_ argument: String) throws(DecodeInputError) -> DecodeInput {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw .notACapture(path: argument, firstOctets: [])
            }
            do {
                return .capture(try CaptureFileReader(path: argument))
            } catch {
                switch error {
                case .unreadable(let reason): throw .unreadable(path: argument, reason: reason)
                case .notACapture(let octets): throw .notACapture(path: argument, firstOctets: octets)
                case .malformed(let error): throw .malformedCapture(path: argument, error: error)
                }
            }
        }
        guard let bytes = HexString.decode(argument) else {
            throw .neitherFileNorHex(argument)
        }
        guard !bytes.isEmpty else { throw .neitherFileNorHex(argument) }
        return .frame(bytes)
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

/// Decodes an input frame by frame, for `aware-conform decode`, and counts what it found: a
/// capture's frames are decoded as they are read, so a caller can print each before the next
/// is read, and the frames before an error in the file are all handed out before it.
public struct DecodeRun {
    public private(set) var frameCount = 0
    public private(set) var nanCount = 0
    public private(set) var otherCount = 0
    public private(set) var malformedCount = 0
    /// The first frame's capture time: decode's text shows times relative to it, as Wireshark.
    public private(set) var startTimestamp: UInt64?
    private var input: DecodeInput?

    public init(_ input: DecodeInput) {
        self.input = input
    }

    /// The next frame, numbered from 1 as Wireshark numbers them; nil at the end. Throws a
    /// capture's first error, or the system's refusal to read on, after the frames before it.
    public mutating func next() throws(DecodeInputError) -> DecodedFrame? {
        let record: CaptureRecord?
        let octets: [UInt8]
        switch input {
        case nil:
            return nil
        case .frame(let frame)?:
            input = nil
            record = nil
            octets = frame
        case .capture(let reader)?:
            do {
                guard let next = try reader.next() else {
                    input = nil
                    return nil
                }
                record = next
                octets = next.frame
            } catch {
                input = nil
                switch error {
                case .unreadable(let reason): throw .unreadable(path: reader.path, reason: reason)
                case .notACapture(let octets): throw .notACapture(path: reader.path, firstOctets: octets)
                case .malformed(let error): throw .malformedCapture(path: reader.path, error: error)
                }
            }
        }
        let frame = DecodedFrame(number: frameCount + 1, record: record, octets: octets)
        frameCount += 1
        if startTimestamp == nil { startTimestamp = record?.timestamp }
        switch frame.verdict {
        case .nan: nanCount += 1
        case .notNAN: otherCount += 1
        case .malformed: malformedCount += 1
        }
        return frame
    }

    /// "37 frames: 37 NAN, 0 not NAN, 0 malformed"
    public var summary: String {
        "\(frameCount) frame\(frameCount == 1 ? "" : "s"): \(nanCount) NAN, \(otherCount) not NAN, "
            + "\(malformedCount) malformed"
    }
}

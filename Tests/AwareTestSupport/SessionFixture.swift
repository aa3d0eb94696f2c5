import Foundation

/// The repository's Fixtures/ at test time: the public vectors, the hostap session A transcript
/// and its pcap.
public enum SessionFixture {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    public static func json(_ relativePath: String) throws -> Any {
        let data = try Data(contentsOf: directory.appendingPathComponent(relativePath))
        return try JSONSerialization.jsonObject(with: data)
    }

    public static func transcript() throws -> Any { try json("hostap-session-A/transcript.json") }

    /// The value at a dotted path ("pairing.pasn.kck").
    public static func value(_ root: Any, _ path: String) throws -> Any {
        var current = root
        for key in path.split(separator: ".") {
            guard let object = current as? [String: Any], let next = object[String(key)] else {
                throw Missing(description: "no \(path) in fixture")
            }
            current = next
        }
        return current
    }

    public static func string(_ root: Any, _ path: String) throws -> String {
        guard let text = try value(root, path) as? String else { throw Missing(description: "\(path) is not a string") }
        return text
    }

    /// Hex or colon-separated MAC address at `path`, as octets.
    public static func bytes(_ root: Any, _ path: String) throws -> [UInt8] {
        hex(try string(root, path).replacingOccurrences(of: ":", with: ""))
    }

    /// The frames of Fixtures/hostap-session-A/session.pcap (classic libpcap: 24-octet global
    /// header, then 16-octet record headers whose octets 8-11 are the captured length, LE).
    /// Element 0 is frame 1.
    public static func sessionFrames() throws -> [[UInt8]] {
        let file = [UInt8](try Data(contentsOf: directory.appendingPathComponent("hostap-session-A/session.pcap")))
        guard file.count >= 24, file[0..<4] == [0xD4, 0xC3, 0xB2, 0xA1] else {
            throw Missing(description: "session.pcap is not a little-endian classic pcap")
        }
        var frames: [[UInt8]] = []
        var offset = 24
        while offset + 16 <= file.count {
            let length = (8..<12).reversed().reduce(0) { $0 << 8 | Int(file[offset + $1]) }
            let start = offset + 16
            guard start + length <= file.count else { throw Missing(description: "truncated pcap record") }
            frames.append(Array(file[start..<(start + length)]))
            offset = start + length
        }
        return frames
    }

    /// Frame `number` (1-based) of the session.
    public static func frame(_ number: Int) throws -> [UInt8] {
        let frames = try sessionFrames()
        guard frames.indices.contains(number - 1) else { throw Missing(description: "no frame \(number)") }
        return frames[number - 1]
    }
}

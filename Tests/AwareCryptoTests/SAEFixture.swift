import AwareTestSupport
import Foundation
import Testing

/// `pairing.sae` of the hostap session-A transcript (Fixtures/hostap-session-A/README.md),
/// read at test time so the expected values are the recorded ones, not copies.
struct SAETranscript {
    let root: [String: Any]

    init() throws {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repository.appendingPathComponent("Fixtures/hostap-session-A/transcript.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let pairing = document?["pairing"] as? [String: Any]
        root = try #require(pairing?["sae"] as? [String: Any])
    }

    /// The hex string at `path` ("h2e.u1", "phone.commit_element.x"), as octets.
    func bytes(_ path: String) throws -> [UInt8] {
        var node: Any = root
        for key in path.split(separator: ".") {
            node = try #require((node as? [String: Any])?[String(key)], "no \(path) in the transcript")
        }
        return hex(try #require(node as? String, "\(path) is not a string"))
    }

    /// x || y of the point at `path`.
    func point(_ path: String) throws -> [UInt8] {
        try bytes(path + ".x") + bytes(path + ".y")
    }

    func integer(_ path: String) throws -> UInt16 {
        var node: Any = root
        for key in path.split(separator: ".") {
            node = try #require((node as? [String: Any])?[String(key)], "no \(path) in the transcript")
        }
        return UInt16(try #require(node as? Int, "\(path) is not an integer"))
    }
}

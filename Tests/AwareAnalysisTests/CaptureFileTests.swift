import AwareAnalysis
import Foundation
import Testing

/// Reading a capture says what the system said (issue 21, finding 9: Foundation's "You don't have
/// permission" was shown to root, who has every permission).
@Suite struct CaptureFileTests {
    @Test func aRefusalIsTheSystemsOwnWords() {
        #expect(throws: CaptureFile.ReadError(reason: "Not a directory")) { try CaptureFile.read("/etc/hostname/x") }
        #expect(throws: CaptureFile.ReadError(reason: "No such file or directory")) {
            try CaptureFile.read("/nonexistent-\(UUID().uuidString)")
        }
        #expect(throws: CaptureFile.ReadError(reason: "Is a directory")) { try CaptureFile.read("/tmp") }
    }

    @Test func aFileIsReadWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-cap-\(UUID().uuidString.prefix(6))"
        )
        defer { try? FileManager.default.removeItem(at: path) }
        let octets = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(octets).write(to: path)
        #expect(try CaptureFile.read(path.path) == octets)
    }
}

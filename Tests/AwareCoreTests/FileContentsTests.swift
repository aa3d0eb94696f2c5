import AwareCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reading a capture says what the system said (issue 21, finding 9: Foundation's "You don't have
/// permission" was shown to root, who has every permission).
@Suite struct FileContentsTests {
    @Test func aRefusalIsTheSystemsOwnWords() {
        #expect(throws: FileContents.ReadError.system(errno: ENOTDIR)) { try FileContents.read("/etc/hostname/x") }
        #expect(throws: FileContents.ReadError.system(errno: ENOENT)) {
            try FileContents.read("/nonexistent-\(UUID().uuidString)")
        }
        #expect(throws: FileContents.ReadError.system(errno: EISDIR)) { try FileContents.read("/tmp") }
    }

    @Test func theReasonIsTheSystemsText() {
        #expect(FileContents.ReadError.system(errno: EACCES).reason == "Permission denied")
        #expect(FileContents.ReadError.system(errno: ENOTDIR).reason == "Not a directory")
        #expect(FileContents.ReadError.longerThan(4).reason == "it is over 4 octets")
    }

    @Test func aFileIsReadWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-cap-\(UUID().uuidString.prefix(6))"
        )
        defer { try? FileManager.default.removeItem(at: path) }
        let octets = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(octets).write(to: path)
        #expect(try FileContents.read(path.path) == octets)
        #expect(try FileContents.read(path.path, atMost: 200_000) == octets)
        #expect(throws: FileContents.ReadError.longerThan(199_999)) {
            try FileContents.read(path.path, atMost: 199_999)
        }
    }
}

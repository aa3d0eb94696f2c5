import AwareCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct AtomicFileTests {
    private func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "atomic-\(UInt32.random(in: .min ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func replacesTheWholeFileWithItsMode() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/keys.json"
        try AtomicFile.write(Array("old".utf8), to: path)
        try AtomicFile.write(Array("new contents".utf8), to: path, mode: 0o600)
        #expect(FileManager.default.contents(atPath: path) == Data("new contents".utf8))
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        // Nothing is left behind under the temporary name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["keys.json"])
    }

    /// A symbolic link in the target's place is replaced, never written through.
    @Test func neverWritesThroughALink() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try AtomicFile.write(Array("untouched".utf8), to: victim)
        try FileManager.default.createSymbolicLink(atPath: directory + "/state.json", withDestinationPath: victim)
        try AtomicFile.write(Array("state".utf8), to: directory + "/state.json")
        #expect(FileManager.default.contents(atPath: victim) == Data("untouched".utf8))
        #expect(FileManager.default.contents(atPath: directory + "/state.json") == Data("state".utf8))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/state.json")) == nil)
    }

    @Test func saysWhyItCannotWrite() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: directory + "/missing/file") }
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: directory + "/") }
        #expect(AtomicFile.problem(writing: directory) == "it is a directory")
        #expect(AtomicFile.problem(writing: directory + "/missing/file")?.contains("does not exist") == true)
        #expect(AtomicFile.problem(writing: directory + "/fine") == nil)
        #expect(
            AtomicFile.directoryOf("/x") == "/" && AtomicFile.directoryOf("x") == "."
                && AtomicFile.directoryOf("a/b") == "a"
        )
    }
}

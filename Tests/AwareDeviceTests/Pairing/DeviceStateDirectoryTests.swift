import AwareDevice
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The state directory both programs keep their files in: one user at a time, atomic writes,
/// private permissions.
@Suite struct DeviceStateDirectoryTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    @Test func aNewDirectoryIs0700AndItsFiles0600() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let directory = try StateDirectory(path: temporary.path)
        try directory.writeAtomically(Data("{}".utf8), to: "a.json")
        #expect(Self.mode(temporary.path) == 0o700)
        #expect(Self.mode(temporary.file("a.json")) == 0o600)
        #expect(Self.mode(temporary.file("lock")) == 0o600)
        #expect(try directory.read("a.json") == Data("{}".utf8))
        #expect(try directory.read("absent.json") == nil)
    }

    @Test func aSecondOpenOfTheSameDirectoryIsInUseUntilTheFirstCloses() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        var first: StateDirectory? = try StateDirectory(path: temporary.path)
        #expect(throws: DeviceStateError.inUse(path: temporary.path)) { try StateDirectory(path: temporary.path) }
        withExtendedLifetime(first) {}
        first = nil
        _ = try StateDirectory(path: temporary.path)
    }

    @Test func aFileInPlaceOfTheDirectoryIsNotADirectory() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write("x", to: "plain")
        #expect(throws: DeviceStateError.notADirectory(temporary.file("plain"))) {
            try StateDirectory(path: temporary.file("plain"))
        }
    }

    @Test func aWriteReplacesTheWholeFileAndLeavesNoTemporary() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let directory = try StateDirectory(path: temporary.path)
        try directory.writeAtomically(Data("first, longer contents".utf8), to: "a.json")
        try directory.writeAtomically(Data("second".utf8), to: "a.json")
        #expect(temporary.contents("a.json") == Data("second".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(names == ["a.json", "lock"])
    }

    @Test func staleTemporariesFromAnInterruptedWriteAreRemovedOnOpen() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write("old", to: "a.json")
        try temporary.write("half a wri", to: "a.json.tmp-4242")
        let directory = try StateDirectory(path: temporary.path)
        #expect(try directory.read("a.json") == Data("old".utf8))
        #expect(temporary.contents("a.json.tmp-4242") == nil)
    }

    @Test func removeSaysWhetherTheFileWasThere() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let directory = try StateDirectory(path: temporary.path)
        try directory.writeAtomically(Data("x".utf8), to: "a.json")
        #expect(try directory.remove("a.json"))
        #expect(try directory.remove("a.json") == false)
        #expect(temporary.contents("a.json") == nil)
    }
}

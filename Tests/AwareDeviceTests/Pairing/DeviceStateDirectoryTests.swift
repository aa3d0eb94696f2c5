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

    /// Issue 21, finding 3: only a regular file this program could have written is read. A
    /// symbolic link (here a loop), a FIFO (whose open would wait for a writer forever), a
    /// directory and a file past the size limit are damaged, and each is left as it was.
    @Test func onlyARegularFileOfBoundedSizeIsRead() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let directory = try StateDirectory(path: temporary.path)
        func refusal(_ name: String) -> String? {
            do {
                _ = try directory.read(name)
                return nil
            } catch {
                guard case .corrupt(_, let reason) = error else { return "not corrupt: \(error)" }
                return reason
            }
        }
        #expect(symlink(temporary.file("loop.json"), temporary.file("loop.json")) == 0)
        #expect(refusal("loop.json") == "it is a symbolic link, not a file this program wrote")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: temporary.file("real.json")))
        #expect(symlink(temporary.file("real.json"), temporary.file("link.json")) == 0)
        #expect(refusal("link.json") == "it is a symbolic link, not a file this program wrote")
        #expect(mkfifo(temporary.file("fifo.json"), 0o600) == 0)
        #expect(refusal("fifo.json") == "it is a FIFO, not a regular file")
        try FileManager.default.createDirectory(atPath: temporary.file("dir.json"), withIntermediateDirectories: false)
        #expect(refusal("dir.json") == "it is a directory, not a regular file")
        let large = Data(count: StateDirectory.maximumFileOctets + 1)
        try large.write(to: URL(fileURLWithPath: temporary.file("large.json")))
        #expect(refusal("large.json") == "it is 1048577 octets; a state file holds at most 1048576")
        let exact = Data(repeating: 0x20, count: StateDirectory.maximumFileOctets)
        try exact.write(to: URL(fileURLWithPath: temporary.file("exact.json")))
        #expect(try directory.read("exact.json") == exact)
        // Left as they were.
        var status = stat()
        #expect(lstat(temporary.file("loop.json"), &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(lstat(temporary.file("fifo.json"), &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    /// Issue 21, finding 6: what another user may write, this program would take as its own keys.
    /// A state directory or file its group or everyone may write is refused, and left as it is.
    @Test func aDirectoryOrFileOthersMayWriteIsRefused() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        try FileManager.default.createDirectory(atPath: temporary.path, withIntermediateDirectories: true)
        #expect(chmod(temporary.path, 0o777) == 0)
        #expect {
            _ = try StateDirectory(path: temporary.path)
        } throws: { error in
            guard case DeviceStateError.insecure(_, let reason) = error else { return false }
            return reason.contains("(mode 0777)") && reason.contains("chmod 700")
        }
        #expect(chmod(temporary.path, 0o700) == 0)
        let directory = try StateDirectory(path: temporary.path)
        try directory.writeAtomically(Data("{}".utf8), to: "pairings.json")
        #expect(chmod(temporary.file("pairings.json"), 0o666) == 0)
        #expect {
            _ = try directory.read("pairings.json")
        } throws: { error in
            guard case DeviceStateError.insecure(_, let reason) = error else { return false }
            return reason.contains("(mode 0666)") && reason.contains("chmod 600")
        }
        // Readable by others is not refused: the writer makes every file 0600 again.
        #expect(chmod(temporary.file("pairings.json"), 0o644) == 0)
        #expect(try directory.read("pairings.json") == Data("{}".utf8))
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func aFileOfAnotherUserIsRefused() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let directory = try StateDirectory(path: temporary.path)
        try directory.writeAtomically(Data("{}".utf8), to: "identity.json")
        #expect(chown(temporary.file("identity.json"), 65_534, 65_534) == 0)
        #expect {
            _ = try directory.read("identity.json")
        } throws: { error in
            guard case DeviceStateError.insecure(_, let reason) = error else { return false }
            return reason.contains("belongs to user 65534")
        }
    }
}

import AwareAnalysis
import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

/// Issue 21, finding 8: `decode` and `analyze` read the whole file before the first record (a
/// 2 GB capture took 4.2 GB although its error was at offset 255).
@Suite struct CaptureFileReaderTests {
    static let sessionPath = DecodeRunTests.sessionPath

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "capture-file-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a 2 GB file whose first record claims 2 GB is refused at that length after one chunk is read")
    func hugeRecordIsRefusedWithoutReadingIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("huge.pcap").path
        // A pcap header and a record header whose incl_len (offset 32) is 2^31, in a sparse file
        // of 2 GB: the file is as long as the record says, so only the limit stops the reader.
        let header = hex(
            "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 69000000 01000000 02000000 00000080 00000080"
        )
        #expect(FileManager.default.createFile(atPath: path, contents: Data(header)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(header.count) + (1 << 31))
        try handle.close()

        let reader = try CaptureFileReader(path: path)
        #expect(reader.format == .pcap)
        #expect(
            throws: CaptureFileError.malformed(
                WireError(
                    .tooLong(declared: 1 << 31, limit: CaptureReader.maximumBlockLength),
                    structure: "pcap record 1 header",
                    field: "incl_len",
                    offset: 32
                )
            )
        ) {
            _ = try reader.next()
        }
        #expect(reader.octetsRead <= 1 << 16)
        #expect(reader.recordCount == 0)
    }

    @Test("records come one by one, the same as the whole-buffer reader's; a cut file gives them, then the error")
    func recordsOneByOne() throws {
        let session = try FileContents.read(Self.sessionPath)
        let expected = try CaptureReader.read(bytes: session)
        let reader = try CaptureFileReader(path: Self.sessionPath)
        var records: [CaptureRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records == expected)
        #expect(reader.offset == session.count)

        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = directory.appendingPathComponent("cut.pcap").path
        try Data(session.prefix(24 + 16 + 198 + 16 + 10)).write(to: URL(fileURLWithPath: cut))
        let cutReader = try CaptureFileReader(path: cut)
        #expect(try cutReader.next() == expected[0])
        #expect(
            throws: CaptureFileError.malformed(CaptureReader.readAvailable(bytes: Array(session.prefix(264))).error!)
        ) {
            _ = try cutReader.next()
        }
    }

    @Test("not a capture, and a file the system refuses, are told apart from a malformed capture")
    func inputErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.pcap").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(throws: CaptureFileError.notACapture(firstOctets: [])) { _ = try CaptureFileReader(path: empty) }
        let text = directory.appendingPathComponent("text.pcap").path
        #expect(FileManager.default.createFile(atPath: text, contents: Data("hello".utf8)))
        #expect(throws: CaptureFileError.notACapture(firstOctets: Array("hell".utf8))) {
            _ = try CaptureFileReader(path: text)
        }
        #expect(throws: CaptureFileError.unreadable(reason: "No such file or directory")) {
            _ = try CaptureFileReader(path: directory.appendingPathComponent("none.pcap").path)
        }
    }
}

import AwareProtocol
import AwareWire
import Crypto
import Testing

/// The file service against the content rule FileContent documents, computed here with
/// swift-crypto directly: block i = SHA-256(UTF-8 name || i as 8 octets big-endian), the file is
/// the blocks concatenated and cut at its size.
@Suite struct FileServiceTests {
    private static func expectedContent(name: String, size: Int) -> [UInt8] {
        var octets: [UInt8] = []
        var block: UInt64 = 0
        while octets.count < size {
            var input = Array(name.utf8)
            withUnsafeBytes(of: block.bigEndian) { input += $0 }
            octets += SHA256.hash(data: input)
            block += 1
        }
        return Array(octets.prefix(size))
    }

    private static func expectedDigest(name: String, size: Int) -> [UInt8] {
        Array(SHA256.hash(data: expectedContent(name: name, size: size)))
    }

    private func link(name: String, size: UInt64, request: String? = nil) -> FileServiceLink {
        let server = FileServer(files: [FileContent(name: name, size: size)], chunkSize: 1000)
        return FileServiceLink(client: FileClient(name: request ?? name, flowID: 10), server: server)
    }

    private func completion(_ events: [FileTransferEvent]) -> FileTransferResult? {
        for case .completed(let result) in events { return result }
        return nil
    }

    @Test func contentMatchesTheDocumentedRule() {
        let content = FileContent(name: "clip.mov", size: 100)
        let expected = Self.expectedContent(name: "clip.mov", size: 100)
        #expect(content.bytes(at: 0, count: 100) == expected)
        #expect(content.bytes(at: 30, count: 40) == Array(expected[30..<70]))
        #expect(content.bytes(at: 90, count: 50) == Array(expected[90..<100]))
        #expect(content.bytes(at: 100, count: 1).isEmpty)
        #expect(content.sha256 == Self.expectedDigest(name: "clip.mov", size: 100))
    }

    @Test func aCompleteTransferHashesToTheIndependentDigest() throws {
        var link = link(name: "clip.mov", size: 10_007)
        link.start()
        link.run()
        let result = try #require(completion(link.events))
        let expected = Self.expectedDigest(name: "clip.mov", size: 10_007)
        #expect(result.expectedSHA256 == expected)
        #expect(result.computedSHA256 == expected)
        #expect(result.matches && result.receivedBytes == 10_007 && result.resumes == 0)
        let progress = link.events.compactMap { event -> UInt64? in
            if case .progress(let bytes, _) = event { bytes } else { nil }
        }
        #expect(progress.count == 11 && progress == progress.sorted() && progress.last == 10_007)
        #expect(link.events.contains(.progress(bytes: 10_007, fraction: 1)))
    }

    @Test func resumesAfterALinkDropFromTheReceivedOffset() throws {
        var link = link(name: "clip.mov", size: 20_000)
        link.linkUp = { $0.receivedBytes < 9_000 || $0.resumes > 0 }
        link.start()
        link.run(stop: { $0.receivedBytes >= 9_000 })
        link.run(limit: .seconds(2))
        link.linkDropped()
        let held = link.client.receivedBytes
        #expect(held >= 9_000 && held < 20_000)
        #expect(link.events.last == .interrupted(.linkDropped, receivedBytes: held))

        link.resume()
        link.run()
        #expect(
            link.requests == [FileRequest(name: "clip.mov", offset: 0), FileRequest(name: "clip.mov", offset: held)]
        )
        #expect(link.client.flowID == 11)
        let result = try #require(completion(link.events))
        #expect(result.matches && result.resumes == 1)
        #expect(result.computedSHA256 == Self.expectedDigest(name: "clip.mov", size: 20_000))
        // The server's first connection stopped hearing acks and gave up on its own.
        #expect(link.serverActions.contains { if case .notify(.connectionLost(10, _)) = $0 { true } else { false } })
    }

    @Test func aSilentServerInterruptsTheTransferAfterTheIdleTimeout() {
        var link = link(name: "clip.mov", size: 20_000)
        link.linkUp = { $0.receivedBytes < 5_000 }
        link.start()
        link.run()
        guard case .interrupted(.peerSilent(.seconds(10)), let held)? = link.events.last else {
            Issue.record("expected an interruption, got \(String(describing: link.events.last))")
            return
        }
        #expect(held == link.client.receivedBytes && held >= 5_000)
    }

    @Test func aCorruptedChunkIsAMismatch() throws {
        var link = link(name: "clip.mov", size: 5_000)
        link.corrupt = { message in
            guard case .fileChunk(var chunk) = message.body, chunk.offset == 2_000 else { return message }
            chunk.data[17] ^= 0x01
            var corrupted = message
            corrupted.body = .fileChunk(chunk)
            return corrupted
        }
        link.start()
        link.run()
        let result = try #require(completion(link.events))
        #expect(!result.matches)
        #expect(result.receivedBytes == 5_000)
        #expect(result.expectedSHA256 == Self.expectedDigest(name: "clip.mov", size: 5_000))
    }

    @Test func anUnknownFileIsRefused() {
        var link = link(name: "clip.mov", size: 5_000, request: "other.mov")
        link.start()
        link.run()
        #expect(link.events == [.refused(FileError(code: .notFound, text: "no file named \"other.mov\""))])
        #expect(link.client.state == .refused(FileError(code: .notFound, text: "no file named \"other.mov\"")))
    }

    @Test func anEmptyFileCompletes() throws {
        var link = link(name: "empty", size: 0)
        link.start()
        link.run()
        let result = try #require(completion(link.events))
        #expect(result.matches && result.computedSHA256 == Array(SHA256.hash(data: [UInt8]())))
    }

    private func request(_ name: String, offset: UInt64) -> AppMessage {
        AppMessage(flowID: 3, sequence: 0, sentAt: 0, body: .fileRequest(FileRequest(name: name, offset: offset)))
    }

    /// A 700 MB clip with its digest given: the server hashes nothing and generates only the tail.
    @Test func aLargeFileIsServedFromAnOffsetWithoutExisting() {
        let clip = FileContent(name: "clip.mov", size: 700_000_000)
        let digest = [UInt8](repeating: 0x5A, count: 32)
        var server = FileServer(files: [], chunkSize: 1000)
        server.add(clip, sha256: digest)
        let sent = server.handle(.received(request("clip.mov", offset: 699_999_950)), now: .zero).compactMap { action in
            if case .transmit(let message) = action { message.body } else { nil }
        }
        let tail = Self.expectedTail(name: "clip.mov", offset: 699_999_950, size: 700_000_000)
        #expect(
            sent == [
                .ack,
                .fileHeader(FileHeader(size: 700_000_000, sha256: digest, name: "clip.mov")),
                .fileChunk(FileChunk(offset: 699_999_950, data: tail)),
                .fileEnd,
            ]
        )
    }

    /// The last octets of a file by the documented rule, from the blocks that cover them only.
    private static func expectedTail(name: String, offset: UInt64, size: UInt64) -> [UInt8] {
        var octets: [UInt8] = []
        var block = offset / 32
        while block * 32 < size {
            var input = Array(name.utf8)
            withUnsafeBytes(of: block.bigEndian) { input += $0 }
            octets += SHA256.hash(data: input)
            block += 1
        }
        let skip = Int(offset % 32)
        return Array(octets[skip..<(skip + Int(size - offset))])
    }

    @Test func anOffsetPastTheEndIsRefused() {
        var server = FileServer(files: [FileContent(name: "a", size: 10)])
        let sent = server.handle(.received(request("a", offset: 11)), now: .zero).compactMap { action in
            if case .transmit(let message) = action { message.body } else { nil }
        }
        #expect(
            sent == [
                .ack,
                .fileError(FileError(code: .invalidOffset, text: "offset 11 is past the end of \"a\" (10 octets)")),
            ]
        )
    }
}

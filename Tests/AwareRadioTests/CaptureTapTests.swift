import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

@Suite("CaptureTap")
struct CaptureTapTests {
    let frame = testFrame(to: .broadcast, from: MACAddress(0x02, 0, 0, 0, 0, 0x01), length: 30)

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "capture-tap-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a record carries radiotap TSFT, Flags, Rate, Channel and signal, and an epoch-based timestamp")
    func record() throws {
        let tap = CaptureTap()
        // 1.000123 s of air time.
        tap.air(carried: frame, on: .channel6, signalDBm: -50, at: Instant(nanoseconds: 1_000_123_000))
        let record = try #require(tap.records.first)
        #expect(record.timestamp == 1_767_225_601_000_123_000)
        #expect(record.linkType == .ieee80211Radiotap)
        #expect(record.frame == frame)
        // it_version 0, it_pad 0, it_len 23, it_present 0x2F (TSFT, Flags, Rate, Channel,
        // dBm Antenna Signal); TSFT 1000123 = 0x000F42BB (LE, 8 octets); Flags 0; Rate 12
        // (6 Mb/s); Channel 2437 = 0x0985, flags 0x00C0 (OFDM | 2 GHz); signal −50 = 0xCE.
        let expected = hex("00 00 17 00 2F 00 00 00  BB 42 0F 00 00 00 00 00  00 0C 85 09 C0 00 CE")
        #expect(record.packetData(for: .ieee80211Radiotap) == expected + frame)
    }

    @Test("pcap bytes: little-endian header for link type 127 and a record timestamped epoch + air time")
    func pcapBytes() throws {
        let tap = CaptureTap(format: .pcap)
        tap.air(carried: frame, on: .channel149, signalDBm: -58, at: Instant(nanoseconds: 1_000_123_000))
        let bytes = tap.bytes
        // Magic A1B2C3D4, version 2.4, thiszone 0, sigfigs 0, snaplen 262144, network 127.
        #expect(Array(bytes.prefix(24)) == hex("D4 C3 B2 A1 02 00 04 00 00000000 00000000 00000400 7F000000"))
        // ts_sec 1767225601 = 0x6955B901, ts_usec 123 = 0x7B, incl_len = orig_len = 23 + 30.
        #expect(Array(bytes[24..<40]) == hex("01 B9 55 69  7B 00 00 00  35 00 00 00  35 00 00 00"))
        // Channel 5745 = 0x1671, flags 0x0140 (OFDM | 5 GHz), signal −58 = 0xC6.
        #expect(Array(bytes[58..<63]) == hex("71 16 40 01 C6"))
        let records = try CaptureReader.read(bytes: bytes)
        #expect(records == tap.records)
    }

    @Test("the format follows the extension; an unknown extension is an error")
    func formats() throws {
        let directory = try temporaryDirectory()
        #expect(try CaptureTap(path: directory + "/a.pcap").format == .pcap)
        #expect(try CaptureTap(path: directory + "/a.PCAPNG").format == .pcapng)
        #expect(try CaptureTap(path: directory + "/a.txt", format: .pcap).format == .pcap)
        #expect(throws: CaptureTapError.unknownFormat(path: directory + "/a.txt")) {
            _ = try CaptureTap(path: directory + "/a.txt")
        }
        #expect(throws: CaptureTapError.unknownFormat(path: directory + "/pcap")) {
            _ = try CaptureTap(path: directory + "/pcap")
        }
        // A tap without a path has no file to close.
        try CaptureTap().close()
    }

    @Test("an unwritable path fails at once with the reason")
    func unwritable() throws {
        let directory = try temporaryDirectory()
        let missing = directory + "/no/such/dir/x.pcap"
        #expect(
            throws: CaptureTapError.unwritable(
                path: missing,
                reason: "the directory \(directory)/no/such/dir does not exist"
            )
        ) {
            _ = try CaptureTap(path: missing)
        }
        let folder = directory + "/folder.pcap"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(throws: CaptureTapError.unwritable(path: folder, reason: "it is a directory")) {
            _ = try CaptureTap(path: folder)
        }
    }

    /// Issue 21, finding 8: `--capture` kept every record until exit (+24 MB an hour idle).
    @Test("with a path the tap keeps no record: each frame is in the file as it arrives, as the in-memory tap's octets")
    func writesAsFramesArrive() throws {
        let directory = try temporaryDirectory()
        for format in CaptureFormat.allCases {
            let path = directory + "/c." + format.rawValue
            let tap = try CaptureTap(path: path)
            let memory = CaptureTap(format: format)
            let frames: [(frame: [UInt8], channel: NANChannel, signal: Int, time: Instant)] = [
                (frame, .channel6, -40, microseconds(10)),
                (frame + [0xAA], .channel149, -70, microseconds(2_000)),
                (frame + [0xAA, 0xBB, 0xCC], .channel6, -55, microseconds(3_000)),
            ]
            // The header is on disk before the first frame.
            #expect(try FileContents.read(path) == memory.bytes)
            for (count, item) in frames.enumerated() {
                for sniffer in [tap, memory] {
                    sniffer.air(carried: item.frame, on: item.channel, signalDBm: item.signal, at: item.time)
                }
                // Before any close: the file is a whole capture of every frame so far.
                let bytes = try FileContents.read(path)
                #expect(bytes == memory.bytes)
                #expect(try CaptureReader.read(bytes: bytes) == memory.records)
                #expect(memory.records.count == count + 1)
                #expect(tap.records.isEmpty)
                #expect(tap.frameCount == count + 1)
            }
            let records = try CaptureReader.read(bytes: try FileContents.read(path))
            #expect(records.map(\.frame) == frames.map(\.frame))
            #expect(records.map(\.frequencyMHz) == [2437, 5745, 2437])
            #expect(records.map(\.signalDBm) == [-40, -70, -55])
            #expect(records.map(\.radiotap?.tsft) == [10, 2_000, 3_000])
            #expect(
                records.map(\.timestamp) == [
                    1_767_225_600_000_010_000, 1_767_225_600_002_000_000, 1_767_225_600_003_000_000,
                ]
            )
            try tap.close()
            #expect(try FileContents.read(path) == memory.bytes)
            // Frames after close are not written.
            tap.air(carried: frame, on: .channel6, signalDBm: -40, at: microseconds(4_000))
            #expect(try FileContents.read(path) == memory.bytes)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["c.pcap", "c.pcapng"])
    }

    @Test("a write that fails stops the capture, is reported once, and leaves a whole capture of the frames before it")
    func writeFailure() throws {
        // /dev/full opens like a file, and every write to it fails with ENOSPC: a header that
        // cannot be written fails at once.
        #expect(throws: CaptureTapError.unwritable(path: "/dev/full", reason: "No space left on device")) {
            _ = try CaptureTap(path: "/dev/full", format: .pcap)
        }
        let directory = try temporaryDirectory()
        let path = directory + "/c.pcapng"
        let tap = try CaptureTap(path: path)
        var reported: [CaptureTapError] = []
        tap.failureHandler = { reported.append($0) }
        tap.air(carried: frame, on: .channel6, signalDBm: -40, at: microseconds(10))
        tap.air(carried: frame, on: .channel6, signalDBm: -40, at: microseconds(20))
        // The disk fills: from now on the tap's writes fail.
        tap.file = try AppendingFile(path: "/dev/full")
        tap.air(carried: frame, on: .channel6, signalDBm: -40, at: microseconds(30))
        tap.air(carried: frame, on: .channel6, signalDBm: -40, at: microseconds(40))
        let failure = CaptureTapError.stopped(path: path, frames: 2, reason: "No space left on device")
        #expect(reported == [failure])
        #expect(tap.failure == failure)
        #expect(tap.frameCount == 2)
        #expect(throws: failure) { try tap.close() }
        #expect("\(failure)".contains("stopped after 2 frames: No space left on device"))
        #expect(try CaptureReader.read(bytes: try FileContents.read(path)).count == 2)
    }

    @Test("a symbolic link at the path is refused, not written through")
    func symbolicLink() throws {
        let directory = try temporaryDirectory()
        let target = directory + "/target"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: directory + "/c.pcap", withDestinationPath: target)
        #expect(throws: CaptureTapError.self) { _ = try CaptureTap(path: directory + "/c.pcap") }
        #expect(try FileContents.read(target) == Array("keep".utf8))
    }

    @Test("on a simulated air a tap measures signal from the transmitter to the tap's position")
    func tapPosition() throws {
        let air = SimulatedAir()
        let tap = CaptureTap()
        air.addTap(tap, at: .init(x: 0, y: 10))
        let origin = CaptureTap()
        air.addTap(origin)
        let sender = try RecordingStation(air, 1)
        sender.send(to: .broadcast, on: .channel149)
        air.virtualScheduler.runUntilIdle()
        // 20 dBm − (47.636 + 30) = −57.6 → −58; at the origin, 1 m or less: −27.6 → −28.
        #expect(tap.records.map(\.signalDBm) == [-58])
        #expect(origin.records.map(\.signalDBm) == [-28])
        #expect(tap.records.map(\.frequencyMHz) == [5745])
    }

    @Test("taps can be shown ACKs too")
    func acknowledgements() throws {
        let air = SimulatedAir(configuration: .init(tapsSeeAcknowledgements: true))
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2)
        sender.send(to: receiver.address)
        air.virtualScheduler.runUntilIdle()
        #expect(tap.seen.count == 2)
        #expect(tap.seen.last?.frame == hex("D4 00 00 00") + sender.address.octets)
        // SIFS after the frame's 164 µs.
        #expect(tap.seen[1].time - tap.seen[0].time == .microseconds(180))
    }
}

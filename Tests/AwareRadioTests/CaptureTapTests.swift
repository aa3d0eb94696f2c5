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
        #expect(throws: CaptureTapError.noPath) { try CaptureTap().write() }
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

    @Test("write() replaces the file atomically and leaves no temporary file; the reader gets the records back")
    func writeAndRead() throws {
        let directory = try temporaryDirectory()
        for name in ["c.pcap", "c.pcapng"] {
            let path = directory + "/" + name
            let tap = try CaptureTap(path: path)
            tap.air(carried: frame, on: .channel6, signalDBm: -40, at: microseconds(10))
            try tap.write()
            tap.air(carried: frame + [0xAA], on: .channel149, signalDBm: -70, at: microseconds(2_000))
            try tap.write()
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes == tap.bytes)
            let records = try CaptureReader.read(bytes: bytes)
            #expect(records.map(\.frame) == [frame, frame + [0xAA]])
            #expect(records.map(\.frequencyMHz) == [2437, 5745])
            #expect(records.map(\.signalDBm) == [-40, -70])
            #expect(records.map(\.radiotap?.tsft) == [10, 2_000])
            #expect(records.map(\.timestamp) == [1_767_225_600_000_010_000, 1_767_225_600_002_000_000])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["c.pcap", "c.pcapng"])
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

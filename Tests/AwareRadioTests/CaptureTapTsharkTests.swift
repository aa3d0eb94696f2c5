import AwareWire
import Foundation
import Testing

@testable import AwareRadio

@Suite("CaptureTap: tshark reads what the tap writes")
struct CaptureTapTsharkTests {
    static let tshark = "/usr/bin/tshark"

    func tsharkFields(_ path: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tshark)
        process.arguments = [
            "-r", path, "-T", "fields", "-e", "radiotap.channel.freq", "-e", "radiotap.dbm_antsignal", "-e", "wlan.sa",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(
        "channel frequency, signal and source address decode in tshark, pcap and pcapng",
        arguments: ["pcap", "pcapng"]
    )
    func tsharkDecodes(format: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.tshark) else {
            Issue.record("tshark is missing at \(Self.tshark): run ./ci/setup")
            return
        }
        let directory = NSTemporaryDirectory() + "capture-tshark-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/air." + format
        let air = SimulatedAir()
        let tap = try CaptureTap(path: path)
        air.addTap(tap)
        let sender = try RecordingStation(air, 0x2A, at: .init(x: 10, y: 0))
        sender.send(to: .broadcast, on: .channel6)
        sender.send(to: .broadcast, on: .channel149)
        air.virtualScheduler.runUntilIdle()
        try tap.close()
        let read = try CaptureReader.read(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(read.count == 2)
        // 10 m from the tap: −50 dBm on channel 6, −58 dBm on channel 149.
        #expect(try tsharkFields(path) == ["2437\t-50\t02:00:00:00:00:2a", "5745\t-58\t02:00:00:00:00:2a"])
    }
}

import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// Another program joins the air knowing only docs/reference/socket-air.md: a Python script binds a
/// socket in the directory, acknowledges the unicast frame it receives, prints what it
/// read, and transmits a broadcast frame of its own.
private let peerScript = """
    import os, socket, stat, struct, sys, time
    air, me = sys.argv[1], bytes.fromhex(sys.argv[2])
    HEADER = struct.Struct("<4sBBHHbBQQ6s")
    path = os.path.join(air, "%d-python.sock" % os.getpid())
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.settimeout(10)
    print("ready", flush=True)
    while True:
        data, source = s.recvfrom(65536)
        magic, version, kind, flags, mhz, signal, _, ns, cookie, sender = HEADER.unpack_from(data)
        if magic == b"AWB1" and version == 1 and kind == 1:
            break
    frame = data[HEADER.size:]
    print("frame", mhz, signal, sender.hex(), frame.hex(), flush=True)
    if frame[4:10] == me:
        s.sendto(HEADER.pack(b"AWB1", 1, 2, 1, mhz, 0, 0, time.time_ns(), cookie, me), source)
    mine = bytes.fromhex("d0000000ffffffffffff") + me + bytes.fromhex("516f9a01000000000409")
    datagram = HEADER.pack(b"AWB1", 1, 1, 0, 2437, 15, 0, time.time_ns(), 1, me) + mine
    for name in os.listdir(air):
        peer = os.path.join(air, name)
        if peer != path and stat.S_ISSOCK(os.lstat(peer).st_mode):
            s.sendto(datagram, peer)
    os.unlink(path)
    """

@Suite struct SocketAirPythonTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func aPythonPeerAcknowledgesAndTransmits() throws {
        let directory = TemporaryAirDirectory()
        let a = try AirStation(directory.air, address: addressA)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", peerScript, directory.air, "02b000000002"]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        defer { if python.isRunning { python.terminate() } }
        var lines = LineReader(output.fileHandleForReading)
        #expect(lines.next() == "ready")

        let frame = actionFrame(to: addressB, from: addressA, body: [0x04, 0x09, 0xAB])
        a.send(frame, on: .channel149, cookie: 77)
        #expect(a.status(of: 77)?.acknowledged == true)
        #expect(lines.next() == "frame 5745 20 02a000000001 \(HexString.encode(frame))")

        let heard = a.received.wait(forCount: 1)
        #expect(
            heard.map(\.frame) == [hex("d0 00 00 00 ff ff ff ff ff ff 02 b0 00 00 00 02 51 6f 9a 01 00 00 00 00 04 09")]
        )
        #expect(heard.first?.info.channel == .channel6)
        #expect(heard.first?.info.rssiDBm == -50)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.air).count == 1)
    }
}

/// Lines from a pipe, read as they come (no waiting for the writer to finish).
struct LineReader {
    let handle: FileHandle
    var buffer: [UInt8] = []

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline; nil at end of file.
    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer += chunk
        }
    }
}

import AccessoryKit
import AwareWire
import FuzzSupport

// The accessory's control channel (docs/reference/control.md): `ControlLine.parse` on every line of
// the input, then the same line carried out by a running accessory's firmware
// (`AccessoryFirmware.perform(line:)`), one virtual second apart so that reboots with
// `offSeconds` come back between lines. Every line gets one reply that renders; no line
// traps. The firmware has no state directory: factory reset and reboot run without disk I/O.

/// Lines beyond this many are ignored; a control session that long explores nothing new.
let maximumLines = 16

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(maximumLines)
    let air = MemoryAir()
    let firmware = AccessoryFirmware(
        profile: HarnessProfiles.drone,
        air: air,
        options: AccessoryOptions(seed: 1, pinSource: .seeded)
    )
    do {
        try firmware.start()
    } catch {
        fuzzFailure("the firmware does not start: \(error)")
    }
    for line in lines {
        do {
            _ = try ControlLine.parse(line)
        } catch {
            if error.code.isEmpty || error.description.isEmpty { fuzzFailure("a parse error renders empty: \(error)") }
        }
        let reply = firmware.perform(line: line)
        if reply.line.isEmpty || reply.line.contains("\n") { fuzzFailure("reply is not one line: \(reply.line)") }
        air.virtualScheduler.run(for: .seconds(1))
    }
    firmware.stop()
    return 0
}

/// A line per command of docs/reference/control.md with its members, some out of range, and one
/// session of several lines.
func seeds() -> [FuzzSeed] {
    let faults = AccessoryFault.allCases.prefix(3).map { "\"\($0.rawValue)\"" }.joined(separator: ",")
    let lines = [
        #"{"id":1,"command":"status"}"#,
        #"{"id":"a","command":"paired-devices"}"#,
        #"{"command":"reboot","offSeconds":2}"#,
        #"{"command":"reboot","nmi":"02:a0:00:00:00:09","offSeconds":0.5}"#,
        #"{"command":"factory-reset"}"#,
        #"{"command":"set-faults","faults":[\#(faults)]}"#,
        #"{"command":"clear-faults"}"#,
        #"{"command":"set-position","x":150,"y":2.5}"#,
        #"{"command":"set-tx-power","dBm":31}"#,
        #"{"command":"update-service","service":"_drone-service._udp","txt":{"fw":"2.5.0"}}"#,
        #"{"command":"shutdown"}"#,
        #"{"id":2,"command":"status","extra":true}"#,
        #"[1,2,{"command":"status"}]"#,
        // Issue 21, finding 1: a TXT string of 256 octets ("k=" and 254) stopped the emulator with
        // SIGILL (the TXT writer's length check); 255 octets is the most a string holds.
        #"{"command":"update-service","service":"_drone-service._udp","txt":{"k":"\#(String(repeating: "v", count: 254))"}}"#,
        #"{"command":"update-service","service":"_drone-service._udp","txt":{"k":"\#(String(repeating: "v", count: 253))"}}"#,
    ]
    var seeds = lines.enumerated().map { FuzzSeed(name: "line-\($0.offset + 1)", bytes: Array($0.element.utf8)) }
    let session = [lines[7], lines[8], lines[2], lines[0], lines[5], lines[9], lines[4], lines[1]]
    seeds.append(FuzzSeed(name: "session", bytes: Array(session.joined(separator: "\n").utf8)))
    return seeds
}

runFuzzer(seeds: seeds, testOneInput)

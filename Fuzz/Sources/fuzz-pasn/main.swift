import AwareWire
import FuzzSupport

// The PASN machines on their own (AwareProtocol: PASNInitiator, PASNResponder), with hostap
// session A's PIN and recorded randomness, fed frames cut from the input (FrameSequence). No
// frame traps them, everything they send decodes, and they complete at most once and only
// with the session's keys (PASNHarness). The accessory target runs the responder inside the
// accessory; this one also reaches the initiator, and both through to completion.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let sequence = FrameSequence(FuzzInput.bytes(data, size))
    var harness = PASNHarness(setup: sequence.setup)
    harness.run(sequence)
    return 0
}

/// The session's exchanges that complete (the initiator on frame 15, the responder on 14 and
/// 16), one where the initiator's timer fires first, and the verification frames (35-37).
func seeds() -> [FuzzSeed] {
    func record(_ number: Int, pause: UInt8 = 5) -> FrameSequence.Record {
        FrameSequence.Record(pause: pause, frame: SessionFrames.frame(number))
    }
    return [
        FuzzSeed(name: "initiator-frame2", bytes: FrameSequence(setup: 0, records: [record(15)]).bytes),
        FuzzSeed(name: "initiator-retry", bytes: FrameSequence(setup: 0, records: [record(15, pause: 0xF0)]).bytes),
        FuzzSeed(
            name: "responder-frames-1-3",
            bytes: FrameSequence(setup: 1, records: [record(14), record(16)]).bytes
        ),
        FuzzSeed(name: "initiator-verification", bytes: FrameSequence(setup: 0, records: [record(36)]).bytes),
        FuzzSeed(
            name: "responder-verification",
            bytes: FrameSequence(setup: 1, records: [record(35), record(37)]).bytes
        ),
    ]
}

runFuzzer(seeds: seeds, testOneInput)

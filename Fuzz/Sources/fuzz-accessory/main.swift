import AwareFuzzing
import AwareWire
import FuzzSupport

// The accessory's protocol machines driven by a sequence of frames cut from the input
// (FrameSequence): discovery, bootstrapping with comeback, the PASN responder (with an honest
// phone that pairs when the input asks), the protection of a paired phone's frames, the NDP
// responder, as the accessory runs them, under virtual time. No input traps them; state stays
// bounded; nothing pairs, reconnects or opens a secured data path without a PASN exchange on
// the air (AccessoryHarness).

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let sequence = FrameSequence(FuzzInput.bytes(data, size))
    AccessoryHarness(setup: sequence.setup).run(sequence)
    return 0
}

/// The phone's side of the hostap session (as recorded, and with the accessory's own
/// bootstrapping cookie, synchronized and not), and every frame kind of FrameCorpus in a row,
/// for the drone and (addressed to it) the camera.
func seeds() -> [FuzzSeed] {
    let corpus = FrameCorpus.frames.map { FrameSequence.Record(pause: 10, frame: $0) }
    let toCamera = FrameCorpus.frames.map { FrameSequence.Record(pause: 10, flags: 1, frame: $0) }
    return [
        FuzzSeed(
            name: "hostap-session-A-phone",
            bytes: FrameSequence(setup: 0, records: SessionSeeds.records(cookieFrom: nil)).bytes
        ),
        FuzzSeed(
            name: "hostap-session-A-phone-cookie",
            bytes: FrameSequence(setup: 0, records: SessionSeeds.records(cookieFrom: 0)).bytes
        ),
        FuzzSeed(
            name: "hostap-session-A-phone-cookie-usd",
            bytes: FrameSequence(setup: 1, records: SessionSeeds.records(cookieFrom: 1)).bytes
        ),
        FuzzSeed(
            name: "hostap-session-A-honest-pairing",
            bytes: FrameSequence(setup: 0, records: SessionSeeds.honestRecords(setup: 0)).bytes
        ),
        FuzzSeed(name: "frame-corpus", bytes: FrameSequence(setup: 0, records: corpus).bytes),
        FuzzSeed(name: "frame-corpus-camera", bytes: FrameSequence(setup: 2, records: toCamera).bytes),
    ]
}

runFuzzer(seeds: seeds, testOneInput)

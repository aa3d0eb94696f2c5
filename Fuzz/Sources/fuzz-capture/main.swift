import AwareFuzzing
import AwareWire
import FuzzSupport

// The capture readers (`CaptureReader.read(bytes:)`: pcap, pcapng, radiotap) under the
// robustness contract of DecoderRobustness: a WireError, or records that survive being
// written and read again and whose frames meet the frame contract. Each input is read as a
// whole file and, wrapped in a one-record pcap, as a radiotap packet.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    if case .violated(let reason) = DecoderRobustness.checkCaptureFile(bytes) { fuzzFailure("file: \(reason)") }
    if case .violated(let reason) = DecoderRobustness.checkRadiotapPacket(bytes) {
        fuzzFailure("radiotap packet: \(reason)")
    }
    return 0
}

/// The capture files and radiotap packets `aware-bench robustness` mutates, and the hostap
/// session capture itself.
func seeds() -> [FuzzSeed] {
    let frames = FrameCorpus.frames
    let files = CaptureCorpus.captureFiles(frames: frames).enumerated().map {
        FuzzSeed(name: "capture-\($0.offset + 1)", bytes: $0.element)
    }
    let packets = CaptureCorpus.radiotapPackets(frames: frames).prefix(6).enumerated().map {
        FuzzSeed(name: "radiotap-\($0.offset + 1)", bytes: $0.element)
    }
    return files + packets + [
        FuzzSeed(name: "hostap-session-A.pcap", bytes: RepositoryFile.required(SessionFrames.path))
    ]
}

runFuzzer(seeds: seeds, testOneInput)

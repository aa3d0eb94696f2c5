import AwareFuzzing
import AwareWire
import FuzzSupport

// The frame decoder (`IEEE80211Frame(bytes:)`) under the robustness contract that
// `aware-bench robustness` checks on generated inputs (DecoderRobustness.checkFrame): every
// octet string is rejected with a WireError, or decodes to a value that writes back to
// exactly those octets and renders as JSON and text. Here libFuzzer chooses the octets,
// steered by coverage.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    if case .violated(let reason) = DecoderRobustness.checkFrame(bytes) { fuzzFailure(reason) }
    return 0
}

/// Every frame kind AwareBench builds (FrameCorpus) and the hostap session's 37 frames.
func seeds() -> [FuzzSeed] {
    let built = FrameCorpus.frames.enumerated().map { FuzzSeed(name: "corpus-\($0.offset + 1)", bytes: $0.element) }
    let session = SessionFrames.frames.enumerated().map {
        FuzzSeed(name: "hostap-session-A-\($0.offset + 1)", bytes: $0.element)
    }
    return built + session
}

runFuzzer(seeds: seeds, testOneInput)

import Testing

@testable import AwareCrypto

// IEEE 802.11-2020 12.5.3.4.4: discard a frame whose PN is not greater than the replay
// counter, which starts at 0 when the key is installed.
@Suite struct ReplayCounterTests {
    @Test func acceptsOnlyStrictlyIncreasingPNs() {
        var counter = ReplayCounter()
        let results = [0, 1, 1, 5, 4, 5, 6].map { counter.accept($0) }
        #expect(results == [false, true, false, true, false, false, true])
        #expect(counter.highestAccepted == 6)
    }

    @Test func refusesPNsBeyond48BitsWithoutMovingTheCounter() {
        var counter = ReplayCounter()
        let results = [0x1_0000_0000_0000, 0xFFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF].map { counter.accept($0) }
        #expect(results == [false, true, false])
        #expect(counter.highestAccepted == 0xFFFF_FFFF_FFFF)
    }
}

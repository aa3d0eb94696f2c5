import Testing

@testable import AwareCore

/// A beacon's Timestamp is the TSF when it goes out (IEEE 802.11-2020 11.1.3.1): the air fills
/// it in at transmission (``TxRequest/frame(transmittedAt:)``).
@Suite struct TSFStampTests {
    @Test func theFieldGetsTheTSFOfTheMomentOfTransmission() {
        // 24 octets of header, 8 of Timestamp (queued with 0), 2 more.
        let queued = [UInt8](repeating: 0xAA, count: 24) + [UInt8](repeating: 0, count: 8) + [0x00, 0x02]
        var request = TxRequest(frame: queued, channel: .channel6)
        request.timestampAtTransmission = TSFStamp(fieldOffset: 24, tsfOffsetMicroseconds: 2_104_495)
        // Sent at local time 6.295664 s: TSF = 6 295 664 + 2 104 495 = 8 400 159 µs = 0x802D1F,
        // little-endian.
        let sent = request.frame(transmittedAt: 6_295_664_321)
        #expect(Array(sent[24..<32]) == [0x1F, 0x2D, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(Array(sent[0..<24]) == Array(queued[0..<24]) && Array(sent[32...]) == [0x00, 0x02])
        // Without a stamp, or with a field past the end, the frame goes as queued.
        #expect(TxRequest(frame: queued, channel: .channel6).frame(transmittedAt: 1) == queued)
        let short = TSFStamp(fieldOffset: 30, tsfOffsetMicroseconds: 0)
        #expect(short.stamping(queued, at: 1_000_000) == queued)
        // A TSF that would go below zero is 0.
        #expect(
            TSFStamp(fieldOffset: 0, tsfOffsetMicroseconds: -10).stamping([UInt8](repeating: 9, count: 8), at: 0)
                == [UInt8](repeating: 0, count: 8)
        )
    }
}

import AwareProtocol
import AwareTestSupport
import AwareWire
import Testing

/// The performance model against numbers worked out by hand from IEEE 802.11-2020 and the
/// schedules PerformanceMode documents.
@Suite struct PerformanceModelTests {
    @Test func serviceClassesMapToTheirAccessCategoriesAndTIDs() {
        #expect(ServiceClass.background.accessCategory == .background)
        #expect(ServiceClass.bestEffort.accessCategory == .bestEffort)
        #expect(ServiceClass.interactiveVideo.accessCategory == .video)
        #expect(ServiceClass.interactiveVoice.accessCategory == .voice)
        #expect(AccessCategory.allCases.map(\.tid) == [1, 0, 5, 6])
        #expect(
            ServiceClass.allCases.map(\.commandLineName) == [
                "best-effort", "background", "interactive-video", "interactive-voice",
            ]
        )
        // Table 10-1: UP 0 and 3 best effort, 1 and 2 background, 4 and 5 video, 6 and 7 voice.
        #expect(
            (0...7).map { AccessCategory(userPriority: UInt8($0)) } == [
                .bestEffort, .background, .background, .bestEffort, .video, .video, .voice, .voice,
            ]
        )
    }

    /// AIFS = 16 µs + AIFSN × 9 µs; mean wait = AIFS + CWmin / 2 × 9 µs (5 GHz OFDM).
    @Test func voiceWaitsLeastAndBackgroundMost() {
        #expect(AccessCategory.allCases.map { $0.edca.aifsMicroseconds() } == [79, 43, 34, 34])
        #expect(AccessCategory.allCases.map { $0.edca.meanAccessDelayMicroseconds() } == [146.5, 110.5, 65.5, 47.5])
        let byWait = AccessCategory.allCases.sorted {
            $0.edca.meanAccessDelayMicroseconds() < $1.edca.meanAccessDelayMicroseconds()
        }
        #expect(byWait == [.voice, .video, .bestEffort, .background])
    }

    @Test func bulkIsAQuarterOfTheTimeWithNoGapOverNinetySixTU() {
        #expect(PerformanceMode.bulk.dutyCycle == 0.25)
        #expect(PerformanceMode.bulk.longestGapTU == 96)
        #expect(PerformanceMode.realtime.dutyCycle == 1)
        #expect(PerformanceMode.realtime.longestGapTU == 0)
    }

    /// Control `18 00` (16 TU bits, period code 3 = 512 TU, offset 0), length 4, then the slots:
    /// bulk sets bits 1 and 2 of every octet (slots 1-2, 9-10, 17-18, 25-26).
    @Test func schedulesAreNANTimeBitmaps() {
        #expect(PerformanceMode.bulk.timeBitmap.wireBytes == hex("180004" + "06060606"))
        #expect(PerformanceMode.realtime.timeBitmap.wireBytes == hex("180004" + "ffffffff"))
        #expect(PerformanceMode.bulk.timeBitmap.intervalsTU?.first == 16..<32)
    }

    @Test func aModeMismatchIsReportedNotTolerated() {
        #expect(
            PerformanceAgreement(local: (.realtime, .interactiveVideo), peer: (.bulk, .interactiveVideo))
                == .modeMismatch(local: .realtime, peer: .bulk)
        )
        #expect(
            PerformanceAgreement(local: (.bulk, .bestEffort), peer: (.bulk, .background))
                == .classMismatch(mode: .bulk, local: .bestEffort, peer: .background)
        )
        let agreed = PerformanceAgreement(local: (.realtime, .interactiveVideo), peer: (.realtime, .interactiveVideo))
        #expect(agreed == .agreed(.realtime, .video) && agreed.isAgreed)
    }
}

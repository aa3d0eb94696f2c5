import AccessoryKit
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareTestSupport
import AwareWire
import ConformanceKit
import Foundation
import Testing

/// The emulated accessory and the runner's phone on the simulated air: pairing, then a paired
/// data path with the accessory's application traffic on it.
@Suite struct DataPathEndToEndTests {
    typealias Bench = PairingEndToEndTests.Bench

    func paired(profile: String = "drone", faults: Set<AccessoryFault> = []) throws -> (Bench, DiscoveryResult) {
        let bench = try Bench(profileName: profile, faults: faults)
        let result = try bench.discover()
        let outcome = try #require(bench.pair(result))
        try #require(outcome.result == .paired, "\(outcome)")
        return (bench, result)
    }

    func open(
        _ bench: Bench,
        _ result: DiscoveryResult,
        mode: PerformanceMode = .bulk,
        security: PhoneDataPathRequest.Security = .paired
    ) -> DataPathOutcome? {
        let id = bench.phone.dataPaths.open(
            PhoneDataPathRequest(
                accessory: result.publisherAddress,
                publishID: result.publishInstanceID,
                serviceName: result.serviceName,
                mode: mode,
                security: security,
                servicePort: 7000
            )
        )
        _ = bench.run(.seconds(10)) { bench.phone.dataPaths.outcomes[id] != .pending }
        return bench.phone.dataPaths.outcomes[id]
    }

    @Test func aPairedPhoneGetsADataPathAndTheDronesTelemetry() throws {
        let (bench, result) = try paired()
        let outcome = try #require(open(bench, result))
        let link = try #require(outcome.link, "\(outcome)")
        #expect(link.security == .ncsPKPASN128)
        #expect(link.schedule.slots == PerformanceMode.bulk.availableSlots)
        bench.run(for: .seconds(5))
        let session = try #require(bench.phone.dataPaths.sessions[link.id])
        // The drone streams telemetry at 60 Hz on flow 1: about 300 in 5 s.
        let telemetry = session.arrivals[1]?.count ?? 0
        #expect((280...305).contains(telemetry), "telemetry datagrams: \(telemetry)")
        #expect(session.receivedTIDs.keys.sorted() == [0])
        // Control: a ping is answered.
        session.send(.ping([7, 7]))
        #expect(bench.run(.seconds(2)) { session.controlMessages.contains(.pong([7, 7])) })
        #expect(bench.names().contains("datapath_established"))
    }

    /// The accessory asks the phone to move the NDL to its realtime schedule (what the control
    /// command `renegotiate-schedule` does); the phone accepts and telemetry goes on in the new
    /// slots. Then the phone asks for bulk again and the accessory takes it.
    @Test func theAccessoryRenegotiatesTheScheduleAndThePhoneAnswers() throws {
        let (bench, result) = try paired()
        let link = try #require(open(bench, result)?.link)
        let phone = bench.phone.device.configuration.address
        #expect(bench.accessory.renegotiateSchedules(mode: .realtime) == [phone])
        bench.run(for: .seconds(1))
        let realtime = NDPSchedule(mode: .realtime)
        #expect(
            bench.phone.dataPaths.scheduleEvents == [
                .updated(peer: result.publisherAddress, realtime, requestedByPeer: true)
            ]
        )
        #expect(bench.phone.dataPaths.schedule(with: result.publisherAddress) == realtime)
        #expect(bench.accessory.dataPaths.first?.schedule == realtime)
        #expect(bench.names().contains("schedule_updated"))
        // The accessory's mode is unchanged: it asked, it did not switch.
        #expect(bench.accessory.performanceMode == .bulk)
        let session = try #require(bench.phone.dataPaths.sessions[link.id])
        let before = session.arrivals[1]?.count ?? 0
        bench.run(for: .seconds(2))
        #expect((session.arrivals[1]?.count ?? 0) - before > 100, "telemetry after the change")

        let bulk = NDPSchedule(mode: .bulk)
        #expect(bench.phone.dataPaths.renegotiateSchedule(with: result.publisherAddress, proposal: bulk))
        bench.run(for: .seconds(1))
        #expect(
            bench.phone.dataPaths.scheduleEvents.last
                == .updated(peer: result.publisherAddress, bulk, requestedByPeer: false)
        )
        #expect(bench.accessory.dataPaths.first?.schedule == bulk)
        let frames = bench.phone.dataPaths.receivedScheduleFrames[result.publisherAddress] ?? []
        let subtypes = frames.compactMap { frame -> UInt8? in
            if case .nanAction(let naf) = frame.frame.body { naf.subtype.rawValue } else { nil }
        }
        #expect(subtypes == [10, 11])
    }

    @Test func anUnpairedOrOpenRequestIsRefusedWithReasonEight() throws {
        let (bench, result) = try paired()
        let refused = try #require(self.open(bench, result, security: .open))
        #expect(refused.reason == .securityPolicy, "\(refused)")
        let stranger = try #require(self.open(bench, result, security: .unpaired))
        #expect(stranger.reason == .securityPolicy, "\(stranger)")
    }

    @Test func aRealtimeRequestToABulkAccessoryIsRefusedWithReasonNine() throws {
        let (bench, result) = try paired()
        let outcome = try #require(open(bench, result, mode: .realtime))
        #expect(outcome.reason == .qosUnacceptable, "\(outcome)")
    }

    @Test func realtimeTelemetryArrivesSteadilyWithinTheBudget() throws {
        let (bench, result) = try paired()
        bench.accessory.performanceMode = .realtime
        let outcome = try #require(open(bench, result, mode: .realtime))
        let link = try #require(outcome.link, "\(outcome)")
        bench.run(for: .seconds(6))
        let session = try #require(bench.phone.dataPaths.sessions[link.id])
        let latencies = try #require(session.latencies[1])
        let statistics = try #require(LatencyStatistics(samples: latencies))
        #expect(statistics.p99 < .milliseconds(20), "p99 \(statistics.p99)")
        let arrivals = try #require(session.arrivals[1])
        #expect(!BurstDetector(packetsPerSecond: 60).analyze(arrivals).isDiscoveryWindowBursting)
    }

    @Test func smallAppMessagesTravelInFollowUpsWithoutADataPath() throws {
        let bench = try Bench()
        let result = try bench.discover()
        let token = (0..<16).map { UInt8($0) }
        try bench.phone.sendAppMessage(token, to: result)
        #expect(bench.run(.seconds(5)) { !bench.phone.appMessages.isEmpty })
        let answer = try #require(bench.phone.appMessages.first)
        #expect(answer.from == result.publisherAddress)
        #expect(answer.message.body == .datagram(token))
        #expect(bench.names().contains("app_message_received"))
        #expect(bench.accessory.dataPaths.isEmpty)
        // 231 octets fit one follow-up; 232 are refused before anything is sent, with both sizes.
        try bench.phone.sendAppMessage([UInt8](repeating: 1, count: 231), to: result)
        do {
            try bench.phone.sendAppMessage([UInt8](repeating: 1, count: 232), to: result)
            Issue.record("a 232-octet payload was accepted")
        } catch {
            #expect(error == .tooLargeForFollowUp(size: 232, limit: 231))
            #expect("\(error)".contains("232") && "\(error)".contains("231"))
        }
    }

    /// NCS-SK (CSID 1 and 2): a non-Apple profile's shared passphrase secures a data path with a
    /// peer that never paired; the wrong passphrase is refused with reason 8.
    @Test(arguments: [(DatapathSharedKey.Suite.sk128, NANSecurityCipherSuite.ncsSK128), (.sk256, .ncsSK256)])
    func aSharedPassphraseSecuresADataPathWithoutPairing(
        suite: DatapathSharedKey.Suite,
        csid: NANSecurityCipherSuite
    ) throws {
        let path = SessionFixture.directory.deletingLastPathComponent()
            .appendingPathComponent("Fixtures/profiles/good/datapath-shared-key.json").path
        var profile = try ProfileLoader.load(path: path)
        profile.services[0].datapath?.sharedKey = DatapathSharedKey(
            secret: .passphrase("correct horse battery"),
            suite: suite
        )
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 8))
        let accessory = Accessory(profile: profile, air: air, options: AccessoryOptions(seed: 8, pinSource: .seeded))
        let phone = Phone(air: air, seed: 9)
        try accessory.start()
        try phone.start()
        phone.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .active))
        air.virtualScheduler.run(for: .seconds(6))
        let result = try #require(phone.matchedResults().last)
        func open(_ passphrase: String) -> DataPathOutcome? {
            let id = phone.dataPaths.open(
                PhoneDataPathRequest(
                    accessory: result.publisherAddress,
                    publishID: result.publishInstanceID,
                    serviceName: result.serviceName,
                    security: .sharedKey(.passphrase(passphrase, suite: csid)),
                    servicePort: 7000
                )
            )
            air.virtualScheduler.run(for: .seconds(5))
            return phone.dataPaths.outcomes[id]
        }
        let outcome = try #require(open("correct horse battery"))
        let link = try #require(outcome.link, "\(outcome)")
        #expect(link.security == csid)
        #expect(link.cipher == (csid == .ncsSK128 ? .ccmp128 : .gcmp256))
        // Echo over it (the profile does not declare the bench's protocol): the keys match both ways.
        phone.dataPaths.host.sendEchoRequest(on: link.id, sequence: 1, data: [1])
        air.virtualScheduler.run(for: .seconds(2))
        #expect(phone.dataPaths.host.echoes[link.id]?.first?.replyDataMatched == true)
        let wrong = try #require(open("wrong horse battery"))
        #expect(wrong.reason == .securityPolicy, "\(wrong)")
    }
}

import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// Two bare devices pair through their ``PairingManager``s alone, one as responder and one as
/// initiator, with policy from small delegates: no accessory firmware and no runner in between.
/// The protocol lives in AwareDevice; the roles only answer its questions.
@Suite struct PairingManagerTests {
    static let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let pin = "314159"

    /// The accessory's policy: authorize everyone, "show" one fixed PIN, and keep what it hears.
    final class Responder: PairingDelegate {
        var events: [PairingEvent] = []
        var shown: [MACAddress] = []

        func pairingManager(
            _ manager: PairingManager,
            authorize peer: MACAddress,
            method: BootstrappingMethods
        ) -> BootstrapDecision {
            shown.append(peer)
            return .authorize
        }

        func pairingManager(_ manager: PairingManager, setupPasswordFor peer: MACAddress, bootstrapped: Bool) -> String?
        {
            bootstrapped && shown.contains(peer) ? PairingManagerTests.pin : nil
        }

        func pairingManager(_ manager: PairingManager, didReport event: PairingEvent) { events.append(event) }

        var names: [String] { events.map { "\($0)".prefix { $0 != "(" }.description } }
    }

    /// The phone's policy: type the PIN (or none), keep what it hears.
    final class Initiator: PairingDelegate, NANDeviceDelegate {
        var events: [PairingEvent] = []
        var results: [DiscoveryResult] = []
        var pin: String? = PairingManagerTests.pin
        /// Answer `.pending`, as a person still reading the display does.
        var typesLater = false
        var asked = 0

        func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> PINEntry {
            asked += 1
            if typesLater { return .pending }
            return pin.map(PINEntry.entered) ?? .none
        }
        func pairingManager(_ manager: PairingManager, didReport event: PairingEvent) { events.append(event) }

        func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
            if case .discovery(.discoveryResult(let result)) = notification { results.append(result) }
        }

        var ended: PairingAttemptResult? {
            for case .attemptEnded(let result) in events.reversed() { return result }
            return nil
        }
    }

    final class Bench {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 17))
        let accessory: NANDevice
        let phone: NANDevice
        let responder = Responder()
        let initiator = Initiator()
        let accessoryPairing: PairingManager
        let phonePairing: PairingManager

        init(accessoryResponds: Bool = true) throws {
            air.virtualScheduler.calendarOrigin = CalendarTime(unixSeconds: 1_600_000_000)
            accessory = NANDevice(
                configuration: NANDevice.Configuration(
                    name: "accessory",
                    address: PairingManagerTests.accessoryAddress
                ),
                air: air,
                seed: 1
            )
            phone = NANDevice(
                configuration: NANDevice.Configuration(
                    name: "phone",
                    address: PairingManagerTests.phoneAddress,
                    position: .init(x: 2, y: 0)
                ),
                air: air,
                seed: 2
            )
            accessoryPairing = PairingManager(
                device: accessory,
                configuration: PairingManager.Configuration(responds: accessoryResponds),
                store: nil,
                random: DeviceRandom(seed: 3)
            )
            accessoryPairing.advertiseIdentity()
            accessoryPairing.delegate = responder
            phonePairing = PairingManager(
                device: phone,
                configuration: PairingManager.Configuration(responds: false),
                store: nil,
                random: DeviceRandom(seed: 4)
            )
            phonePairing.delegate = initiator
            phone.delegate = initiator
            try accessory.start()
            try phone.start()
            accessory.perform(
                .publish(PublishConfiguration(serviceName: "_drone-service._udp", solicitation: .unsolicited))
            )
            phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .passive)))
            air.virtualScheduler.run(for: .seconds(2))
        }

        func target() throws -> PairingManager.PairingTarget {
            let result = try #require(initiator.results.first)
            return PairingManager.PairingTarget(
                accessory: result.publisherAddress,
                localInstanceID: result.subscribeInstanceID,
                peerInstanceID: result.publishInstanceID,
                address3: result.addressThree
            )
        }

        func pair() throws {
            phonePairing.pair(with: try target(), options: PairingManager.InitiatorOptions())
            air.virtualScheduler.run(for: .seconds(10))
        }
    }

    @Test func aResponderAndAnInitiatorPairAndKeepTheSameRecord() throws {
        let bench = try Bench()
        try bench.pair()
        guard case .paired(let result, nikSent: true, nikReceived: true) = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        #expect(result.akm == .sae)
        #expect(
            bench.responder.names == [
                "bootstrapRequested", "bootstrapAccepted", "pairingStarted", "bootstrapEnded", "paired",
                "nikExchanged",
            ]
        )
        let accessoryRecord = try #require(bench.accessoryPairing.records.first)
        let phoneRecord = try #require(bench.phonePairing.records.first)
        #expect(accessoryRecord.peerNMI == Self.phoneAddress && phoneRecord.peerNMI == Self.accessoryAddress)
        #expect(accessoryRecord.npk == phoneRecord.npk)
        #expect(accessoryRecord.peerNIK == bench.phonePairing.ownNIK)
        #expect(phoneRecord.peerNIK == bench.accessoryPairing.ownNIK)
        // Stamped from the scheduler's calendar, which started at 1,600,000,000.
        #expect((1_600_000_000...1_600_000_020).contains(accessoryRecord.pairedAt))
        #expect(
            bench.accessoryPairing.dataPathKeys[Self.phoneAddress]
                == bench.phonePairing.dataPathKeys[Self.accessoryAddress]
        )
    }

    @Test func theInitiatorVerifiesWithTheRecordTheNIRAResolves() throws {
        let bench = try Bench()
        try bench.pair()
        let nira = try #require(bench.accessoryPairing.identityResolution)
        let record = bench.phonePairing.resolve(nira, publisher: Self.accessoryAddress)
        #expect(record != nil)
        bench.phonePairing.verify(
            with: try bench.target(),
            record: record,
            advertisesNIRA: true,
            options: PairingManager.InitiatorOptions()
        )
        bench.air.virtualScheduler.run(for: .seconds(5))
        guard case .reconnected = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        #expect(bench.responder.names.suffix(3) == ["pairingStarted", "bootstrapEnded", "reconnected"])
    }

    @Test func aDeviceThatDoesNotRespondIgnoresBootstrappingAndFrame1() throws {
        let bench = try Bench(accessoryResponds: false)
        try bench.pair()
        guard case .bootstrapFailed = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        // A rogue initiator that skips bootstrapping gets no frame 2 either.
        bench.phonePairing.pair(
            with: try bench.target(),
            options: PairingManager.InitiatorOptions(deviations: [.skipsBootstrapping])
        )
        bench.air.virtualScheduler.run(for: .seconds(10))
        guard case .pasnFailed(let failure) = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        #expect(failure.reason == "timeout")
        #expect(bench.responder.events.isEmpty)
        #expect(bench.accessoryPairing.records.isEmpty)
    }

    @Test func anInitiatorWithoutAPINEndsAtOnceAfterBootstrapping() throws {
        let bench = try Bench()
        bench.initiator.pin = nil
        try bench.pair()
        guard case .noPIN = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        #expect(bench.phonePairing.sentPASNFrames.isEmpty)
    }

    /// A person takes seconds to type the PIN: PASN waits, with nothing on the air, and pairs
    /// once it is entered, however late.
    @Test func aPendingPINHoldsFrame1UntilItIsEntered() throws {
        let bench = try Bench()
        bench.initiator.typesLater = true
        try bench.pair()
        #expect(bench.initiator.asked == 1)
        #expect(bench.phonePairing.awaitingPIN)
        #expect(bench.phonePairing.sentPASNFrames.isEmpty)
        #expect(bench.initiator.ended == nil)
        bench.phonePairing.enterPIN(PairingManagerTests.pin)
        #expect(!bench.phonePairing.awaitingPIN)
        bench.air.virtualScheduler.run(for: .seconds(10))
        guard case .paired = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        // Frames 1 and 3, nothing before the PIN.
        #expect(bench.phonePairing.sentPASNFrames.count == 2)
        #expect(bench.initiator.asked == 1)
    }

    /// Giving up on the PIN ends the attempt before frame 1: nothing counts against the
    /// accessory's wrong-PIN limit; a late PIN after that is ignored.
    @Test func aPendingPINGivenUpEndsWithoutFrame1() throws {
        let bench = try Bench()
        bench.initiator.typesLater = true
        try bench.pair()
        bench.phonePairing.enterPIN(nil)
        guard case .noPIN = bench.initiator.ended else {
            Issue.record("the attempt ended \(String(describing: bench.initiator.ended))")
            return
        }
        bench.phonePairing.enterPIN(PairingManagerTests.pin)
        bench.air.virtualScheduler.run(for: .seconds(10))
        #expect(bench.phonePairing.sentPASNFrames.isEmpty)
        #expect(!bench.responder.names.contains("pairingStarted"))
    }
}

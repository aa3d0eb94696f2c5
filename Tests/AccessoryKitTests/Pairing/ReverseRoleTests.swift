import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareTestSupport
import AwareWire
import ConformanceKit
import Foundation
import Testing

/// The reverse role (profile `subscriptions`; issue 22): the phone publishes, the accessory
/// subscribes, pairs as the initiator with the PIN the phone shows, and opens the data path.
/// The frames are judged by their octets against the layouts of nan-wire-reference.md and the
/// subscriber's request hostap sent in Fixtures/hostap-session-A (frame 4), not by our parser.
@Suite struct ReverseRoleTests {
    /// Every frame on the air, with its transmitter (A2).
    final class Recorder: AirTap {
        var frames: [[UInt8]] = []
        func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
            frames.append(frame)
        }
        func sent(by address: MACAddress) -> [[UInt8]] {
            frames.filter { $0.count >= 16 && Array($0[10..<16]) == address.octets }
        }
    }

    struct Stage {
        let air: SimulatedAir
        let accessory: Accessory
        let phone: Phone
        let recorder: Recorder

        func run(_ timeout: Interval, until condition: () -> Bool) -> Bool { air.run(timeout, until: condition) }
    }

    static func stage(store: PairingStore? = nil, seed: UInt64 = 5, boot: Int? = nil) throws -> Stage {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        let recorder = Recorder()
        air.addTap(recorder)
        let path = SessionFixture.directory.deletingLastPathComponent().appendingPathComponent("Profiles/drone.json")
        let profile = try ProfileLoader.load(path: path.path)
        let accessory = Accessory(
            profile: profile,
            air: air,
            options: AccessoryOptions(seed: seed, boot: boot, pinSource: .seeded),
            pairingStore: store
        )
        try accessory.start()
        let phone = Phone(air: air, seed: 21, position: .init(x: 2, y: 0))
        try phone.start()
        phone.publishForPairing(service: "_drone-service._udp", instanceID: 5)
        return Stage(air: air, accessory: accessory, phone: phone, recorder: recorder)
    }

    /// The NAN attribute `id` in an SDF or NAF, as octets (ID, length, body).
    static func attribute(_ id: UInt8, in frame: [UInt8], from start: Int) -> [UInt8]? {
        var offset = start
        while offset + 3 <= frame.count {
            let length = Int(frame[offset + 1]) | Int(frame[offset + 2]) << 8
            guard offset + 3 + length <= frame.count else { return nil }
            if frame[offset] == id { return Array(frame[offset..<(offset + 3 + length)]) }
            offset += 3 + length
        }
        return nil
    }

    @Test func theAccessoryAsksToBootstrapAsHostapsSubscriberDid() throws {
        let stage = try Self.stage()
        #expect(stage.run(.seconds(10)) { stage.accessory.awaitsPIN })
        // The accessory's follow-up carrying an NPBA of type Request: a public action frame
        // (category 4, Wi-Fi Alliance OUI 50-6F-9A, type 0x13 SDF) after the 24-octet header.
        let followUps = stage.recorder.sent(by: stage.accessory.address).filter { frame in
            frame.count > 30 && frame[24] == 4 && frame[25] == 9 && Array(frame[26..<29]) == [0x50, 0x6F, 0x9A]
                && frame[29] == 0x13 && Self.attribute(0x2C, in: frame, from: 30).map { $0[4] & 0x0F == 1 } == true
        }
        let request = try #require(followUps.first, "the accessory sent its bootstrapping request")
        #expect(Array(request[4..<10]) == stage.phone.address.octets, "unicast to the publishing phone")
        // NPBA (nan-wire-reference.md 2.x): 2C 05 00 | dialog token | type 1 (Request), status 0 | reason 0 | pbm LE.
        let npba = try #require(Self.attribute(0x2C, in: request, from: 30))
        #expect(npba.count == 8)
        #expect(npba[0..<3] == [0x2C, 0x05, 0x00])
        #expect(npba[3] != 0, "a dialog token (0 is the Advertise form)")
        #expect(Array(npba[4..<8]) == [0x01, 0x00, 0x20, 0x00], "Request, status 0, reason 0, PIN keypad 0x0020")
        // hostap's subscriber sent the same attribute in session A (frame 4), token aside.
        let hostap = try SessionFixture.frame(4)
        let recorded = try #require(Self.attribute(0x2C, in: hostap, from: 30))
        #expect(Array(recorded[0..<3]) == Array(npba[0..<3]))
        #expect(Array(recorded[4..<8]) == Array(npba[4..<8]))
        // SDA (attribute 0x03): ID, length, Service ID (6), Instance ID, Requestor Instance ID, control.
        let sda = try #require(Self.attribute(0x03, in: request, from: 30))
        #expect(sda[10] == 5, "Requestor Instance ID: the phone's publish instance")
        #expect(sda[11] & 0x03 == 0x02, "Service Control type Follow-up")
    }

    @Test func theAccessoryPairsAndAsksForADataPathToThePhonesPublish() throws {
        let stage = try Self.stage()
        #expect(stage.run(.seconds(10)) { stage.accessory.awaitsPIN })
        let pin = try #require(stage.phone.pairing.shownPINs.last?.pin)
        #expect(stage.accessory.enterPIN(pin))
        #expect(!stage.accessory.enterPIN(pin), "no second PIN is taken")
        #expect(
            stage.run(.seconds(20)) {
                stage.phone.dataPaths.outcomes.values.contains { $0.link != nil }
            }
        )
        #expect(stage.phone.pairing.answers.contains(.nikExchanged(peer: stage.accessory.address)))
        #expect(stage.accessory.pairedPeers.map(\.peerNMI) == [stage.phone.address])
        #expect(stage.phone.pairing.records.map(\.peerNMI) == [stage.accessory.address])
        // The Data Path Request (NAF subtype 1) goes protected once the two share an NM-TK (3.8), so
        // it is read as the phone received it, after the protection, laid out again as octets. The
        // NDP or NDPE attribute's Publish ID sits after Dialog Token, Type and Status, Reason Code,
        // Initiator NDI (6), NDP ID and NDP Control (Wi-Fi Aware 4.0 Table 9.5.x).
        let received = stage.phone.dataPaths.receivedFrames.values.flatMap { $0 }.compactMap { frame -> [UInt8]? in
            guard case .nanAction(let naf) = frame.frame.body, naf.subtype == .dataPathRequest else { return nil }
            return IEEE80211Frame.management(frame.frame).wireBytes
        }
        let request = try #require(received.first, "the phone received the accessory's Data Path Request")
        #expect(Array(request[10..<16]) == stage.accessory.address.octets)
        // Category 9, the protected dual of public action (IEEE 802.11-2020 9.6.11), as it was sent.
        #expect(request[24] == 9 && request[25] == 9 && Array(request[26..<29]) == [0x50, 0x6F, 0x9A])
        #expect(request[29] == 0x18 && request[30] == 5, "NAF (OUI type 0x18), subtype 5 Data Path Request")
        let ndp = try #require(
            Self.attribute(0x29, in: request, from: 31) ?? Self.attribute(0x10, in: request, from: 31)
        )
        #expect(ndp[4] & 0x0F == 0x00, "NDP type Request")
        #expect(Array(ndp[6..<12]) == stage.accessory.device.configuration.dataInterfaceAddress.octets)
        #expect(ndp[13] & 0x04 != 0, "NDP Control: Security Present")
        #expect(ndp[13] & 0x08 != 0, "NDP Control: Publish ID Present")
        #expect(ndp[14] == 5, "Publish ID: the phone's publish instance")
    }

    /// A first boot with a store (one across the restart, as the device's flash is): the phone's
    /// PIN entered, the pairing kept, then the accessory and the phone stopped.
    static func pairedThenStopped(_ name: String) throws -> (PairingStore, URL, Stage) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("reverse-role-\(name)-\(getpid())-\(UUID().uuidString)")
        let store = try PairingStore(path: directory.path)
        let first = try stage(store: store, boot: 1)
        #expect(first.run(.seconds(10)) { first.accessory.awaitsPIN })
        #expect(first.accessory.enterPIN(try #require(first.phone.pairing.shownPINs.last?.pin)))
        // Kept once the phone's NIK, the answer to ours, has reached the accessory.
        #expect(first.run(.seconds(20)) { !first.accessory.pairedPeers.isEmpty })
        first.accessory.stop()
        first.phone.stop()
        return (store, directory, first)
    }

    @Test func afterARestartTheAccessoryVerifiesWithoutAPIN() throws {
        let (store, directory, first) = try Self.pairedThenStopped("restart")
        defer { try? FileManager.default.removeItem(at: directory) }

        // The accessory boots again with its store; the same phone (its keys carried over) publishes.
        let second = try Self.stage(store: store, boot: 2)
        second.phone.pairing.carryOver(from: first.phone.pairing)
        _ = second.run(.seconds(20)) {
            second.phone.pairing.answers.contains { if case .reconnected = $0 { true } else { false } }
        }
        #expect(
            second.phone.pairing.answers.contains(.reconnected(peer: second.accessory.address)),
            "\(second.phone.pairing.answers)"
        )
        #expect(second.phone.pairing.shownPINs.isEmpty, "no PIN the second time")
        #expect(second.run(.seconds(10)) { second.phone.dataPaths.outcomes.values.contains { $0.link != nil } })
    }

    /// A phone that forgot the accessory (its app reinstalled) refuses the accessory's
    /// verification; the accessory then pairs afresh with a PIN instead of trying its stale keys
    /// forever.
    @Test func aPhoneThatForgotTheAccessoryIsPairedAfresh() throws {
        let (store, directory, _) = try Self.pairedThenStopped("forgot")
        defer { try? FileManager.default.removeItem(at: directory) }

        // The same phone (NMI, NIK, so its NIRA resolves) with no record of the accessory.
        let second = try Self.stage(store: store, boot: 2)
        #expect(second.run(.seconds(20)) { second.accessory.awaitsPIN })
        #expect(
            second.phone.pairing.answers.first == .failed(peer: second.accessory.address, reason: "no-cached-keys"),
            "the accessory tried its cached keys first: \(second.phone.pairing.answers)"
        )
        #expect(second.accessory.enterPIN(try #require(second.phone.pairing.shownPINs.last?.pin)))
        #expect(second.run(.seconds(20)) { second.phone.pairing.records.map(\.peerNMI) == [second.accessory.address] })
        #expect(
            second.run(.seconds(5)) { second.accessory.pairedPeers.count == 1 },
            "the new pairing replaced the stale one"
        )
    }
}

import AwareCore
import AwareDevice
import AwareRadio
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import AccessoryKit

/// The accessory across power cycles, driven by control lines on the simulated air (virtual
/// time): boots counted on disk, pairings kept, faults switched, the radio silent while off,
/// the link budget of a position.
@Suite struct AccessoryFirmwareTests {
    /// Counts the frames each transmitter puts on the air.
    final class FrameCounter: AirTap {
        var frames: [(time: Instant, transmitter: MACAddress)] = []
        func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
            guard frame.count >= 16, let transmitter = MACAddress(frame[10..<16]) else { return }
            frames.append((time, transmitter))
        }
    }

    final class Bench {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 3))
        let firmware: AccessoryFirmware
        let counter = FrameCounter()
        let state: AccessoryStateDirectory
        let path: String
        var events: [AccessoryEvent] = []
        var links: [AccessoryLinkBudget] = []
        let profile: AccessoryProfile

        init() throws {
            path =
                FileManager.default.temporaryDirectory.appendingPathComponent("awb-fw-\(UUID().uuidString.prefix(8))")
                .path
            state = try AccessoryStateDirectory(path: path)
            let profilePath = SessionFixture.directory.deletingLastPathComponent()
                .appendingPathComponent("Profiles/drone.json").path
            profile = try ProfileLoader.load(path: profilePath)
            let first = try state.boot(
                proposedAddress: Accessory.defaultAddress(profile: profile, seed: 3),
                profileFixesAddress: false
            )
            air.addTap(counter)
            firmware = AccessoryFirmware(
                profile: profile,
                air: air,
                options: AccessoryOptions(seed: 3, address: first.address, boot: first.boots, pinSource: .seeded),
                state: state,
                countsBootsOnDisk: true
            )
            firmware.eventHandler = { [unowned self] in events.append($0) }
            firmware.linkHandler = { [unowned self] in links.append($0) }
            try firmware.start()
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func run(for seconds: Double) { air.virtualScheduler.run(until: air.virtualScheduler.now + .seconds(seconds)) }

        /// Performs `line` and returns the reply as a JSON object.
        func reply(_ line: String) throws -> [String: Any] {
            let text = firmware.perform(line: Array(line.utf8)).line
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }

        func result(_ line: String) throws -> [String: Any] {
            let reply = try reply(line)
            #expect(reply["ok"] as? Bool == true, "\(line): \(reply)")
            return try #require(reply["result"] as? [String: Any])
        }
    }

    @Test func rebootCountsTheBootOnDiskAndKeepsThePairings() throws {
        let bench = try Bench()
        let phone = MACAddress(0x02, 0xB0, 0, 0, 0, 1)
        let secret = [UInt8](repeating: 0x5A, count: 32)
        try bench.state.pairingStore.upsert(
            PairingRecord(
                peerNMI: phone,
                peerNIK: nil,
                npk: secret,
                akm: .pasn,
                cipherSuite: 8,
                pairedAt: 1_700_000_000
            ),
            cap: 8
        )
        bench.run(for: 1)
        let rebooted = try bench.result(#"{"command":"reboot"}"#)
        #expect(rebooted["boot"] as? Int == 2)
        #expect(try bench.state.readIdentity()?.boots == 2)
        let line = bench.firmware.perform(line: Array(#"{"command":"paired-devices","id":"p"}"#.utf8)).line
        #expect(
            line == #"{"id":"p","ok":true,"command":"paired-devices","result":{"devices":[{"nmi":"02:b0:00:00:00:01","#
                + #""pairedAt":1700000000,"akm":"pasn","cipherSuite":8,"hasNIK":false,"nikLifetimeSeconds":0,"label":null}]}}"#
        )
        #expect(!line.lowercased().contains("5a5a"))
        #expect(bench.events.filter { $0.name == "ready" }.count == 2)
    }

    @Test func rebootUnderANewAddressStoresIt() throws {
        let bench = try Bench()
        let rebooted = try bench.result(#"{"command":"reboot","nmi":"02:a0:00:00:00:42"}"#)
        #expect(rebooted["nmi"] as? String == "02:a0:00:00:00:42")
        #expect(bench.firmware.accessory.address == MACAddress(0x02, 0xA0, 0, 0, 0, 0x42))
        #expect(try bench.state.readIdentity()?.address == MACAddress(0x02, 0xA0, 0, 0, 0, 0x42))
        // A later plain reboot keeps the rotated address.
        _ = try bench.result(#"{"command":"reboot"}"#)
        #expect(bench.firmware.accessory.address == MACAddress(0x02, 0xA0, 0, 0, 0, 0x42))
        #expect(try bench.state.readIdentity()?.boots == 3)
    }

    @Test func theRadioIsSilentWhileOff() throws {
        let bench = try Bench()
        bench.run(for: 12)
        let address = bench.firmware.accessory.address
        let before = bench.counter.frames.filter { $0.transmitter == address }.count
        #expect(before > 0)
        let off = bench.air.virtualScheduler.now
        _ = try bench.result(#"{"command":"reboot","offSeconds":3}"#)
        #expect(try bench.result(#"{"command":"status"}"#)["poweredOff"] as? Bool == true)
        bench.run(for: 2.9)
        #expect(bench.counter.frames.filter { $0.transmitter == address && $0.time > off }.isEmpty)
        bench.run(for: 12)
        #expect(bench.counter.frames.contains { $0.transmitter == address && $0.time > off + .seconds(3) })
        let status = try bench.result(#"{"command":"status"}"#)
        #expect(status["poweredOff"] as? Bool == false)
        #expect(status["running"] as? Bool == true)
    }

    @Test func aRebootDuringPowerOffCancelsTheEarlierPowerOn() throws {
        let bench = try Bench()
        _ = try bench.result(#"{"command":"reboot","offSeconds":1}"#)
        _ = try bench.result(#"{"command":"reboot"}"#)
        bench.run(for: 2)
        // One start per boot: the first boot, the second reboot; the cancelled power-on never ran.
        #expect(bench.events.filter { $0.name == "ready" }.count == 2)
    }

    @Test func faultsTakeEffectThroughAReboot() throws {
        let bench = try Bench()
        let serviceID = bench.firmware.accessory.publishConfigurations[0].serviceID
        let set = try bench.result(#"{"command":"set-faults","faults":["first-service-only","wrong-service-id"]}"#)
        #expect(set["faults"] as? [String] == ["first-service-only", "wrong-service-id"])
        #expect(set["boot"] as? Int == 2)
        #expect(bench.firmware.options.faults == [.firstServiceOnly, .wrongServiceID])
        let cleared = try bench.result(#"{"command":"clear-faults"}"#)
        #expect(cleared["faults"] as? [String] == [])
        #expect(bench.firmware.accessory.publishConfigurations[0].serviceID == serviceID)
    }

    @Test func factoryResetStartsANewDevice() throws {
        let bench = try Bench()
        _ = try bench.result(#"{"command":"reboot","nmi":"02:a0:00:00:00:42"}"#)
        try bench.state.pairingStore.upsert(
            PairingRecord(
                peerNMI: MACAddress(0x02, 0xB0, 0, 0, 0, 1),
                peerNIK: nil,
                npk: [UInt8](repeating: 1, count: 32),
                akm: .sae,
                cipherSuite: 7,
                pairedAt: 1
            ),
            cap: 8
        )
        let reset = try bench.result(#"{"command":"factory-reset"}"#)
        #expect(reset["pairedDevicesRemoved"] as? Int == 1)
        #expect(reset["identityRemoved"] as? Bool == true)
        #expect(reset["boot"] as? Int == 1)
        // Back to the address the seed gives, not the rotated one.
        #expect(reset["nmi"] as? String == Accessory.defaultAddress(profile: bench.profile, seed: 3).description)
        #expect(try bench.result(#"{"command":"paired-devices"}"#)["devices"] as? [Any] != nil)
        #expect((try bench.result(#"{"command":"paired-devices"}"#)["devices"] as? [Any])?.isEmpty == true)
    }

    /// Hand-computed with the indoor model: PL(1 m, 2437 MHz) = 20·log10(2437) − 27.55 = 40.19 dB,
    /// plus 30·log10(d); in range down to −82 dBm (6 Mb/s sensitivity).
    @Test func positionAndPowerGiveTheLinkBudget() throws {
        let bench = try Bench()
        let cases: [(String, rssi: Int, inRange: Bool)] = [
            (#"{"command":"set-position","x":2}"#, -29, true),  // 20 − 49.22
            (#"{"command":"set-position","x":48,"y":64}"#, -77, true),  // d = 80: 20 − 97.28
            (#"{"command":"set-position","x":150}"#, -85, false),  // 20 − 105.47
            (#"{"command":"set-tx-power","dBm":30}"#, -75, true),  // 30 − 105.47
        ]
        for (line, rssi, inRange) in cases {
            let result = try bench.result(line)
            #expect(result["rssiDBm"] as? Int == rssi, "\(line)")
            #expect(result["inRange"] as? Bool == inRange, "\(line)")
        }
        #expect(bench.links.map(\.rssiDBm) == [-29, -77, -85, -75])
        let status = try bench.result(#"{"command":"status"}"#)
        #expect((status["link"] as? [String: Any])?["rssiDBm"] as? Int == -75)
        #expect(status["txPowerDBm"] as? Int == 30)
    }

    /// Issue 21, finding 1: an `update-service` whose TXT string is 256 octets stopped the emulator
    /// (SIGILL in the TXT writer). It is refused with where and why, and the accessory goes on
    /// publishing; 255 octets, the most a TXT string holds (RFC 6763 6.1), is taken.
    @Test func aTXTStringTooLongForItsLengthOctetIsRefusedNotFatal() throws {
        let bench = try Bench()
        let service = "_drone-service._udp"
        let tooLong = try bench.reply(
            #"{"command":"update-service","service":"\#(service)","txt":{"k":"\#(String(repeating: "v", count: 254))"}}"#
        )
        #expect(tooLong["ok"] as? Bool == false)
        let error = try #require(tooLong["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid-value")
        #expect(
            error["message"] as? String
                == "update-service: \"txt.k\" is 256 octets as \"key=value\" in UTF-8; a TXT string holds at most 255 (RFC 6763 6.1)"
        )
        let longest = try bench.reply(
            #"{"command":"update-service","service":"\#(service)","txt":{"k":"\#(String(repeating: "v", count: 253))"}}"#
        )
        #expect(longest["ok"] as? Bool == true)
        let updated = bench.air.virtualScheduler.now
        bench.run(for: 12)
        #expect(
            bench.counter.frames.contains { $0.time > updated && $0.transmitter == bench.firmware.accessory.address }
        )
        #expect(try bench.result(#"{"command":"status"}"#)["nmi"] != nil)
    }

    /// Issue 21, finding 1: an identity.json whose boot count is 2^63 - 1 stopped the emulator when
    /// it counted the next boot. A count at or past 2^53 - 1 is a damaged identity.
    @Test func aBootCountThatCannotBeCountedOnIsADamagedIdentity() throws {
        let bench = try Bench()
        let file = URL(fileURLWithPath: bench.path).appendingPathComponent("identity.json")
        let stored = try String(contentsOf: file, encoding: .utf8)
        let damaged = stored.replacingOccurrences(of: #""boots": 1,"#, with: #""boots": 9223372036854775807,"#)
        #expect(damaged != stored)
        try damaged.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: AccessoryStateError.self) { try bench.state.readIdentity() }
        let reboot = try bench.reply(#"{"command":"reboot"}"#)
        #expect(reboot["ok"] as? Bool == false)
        #expect(((reboot["error"] as? [String: Any])?["message"] as? String)?.contains("9223372036854775807") == true)
        let edge = stored.replacingOccurrences(of: #""boots": 1,"#, with: #""boots": 9007199254740990,"#)
        try edge.write(to: file, atomically: true, encoding: .utf8)
        #expect(
            try bench.state.boot(proposedAddress: MACAddress(2, 0, 0, 0, 0, 9), profileFixesAddress: false).boots
                == 9_007_199_254_740_991
        )
        #expect(throws: AccessoryStateError.self) { try bench.state.readIdentity() }
    }

    @Test func refusalsAreRepliesAndChangeNothing() throws {
        let bench = try Bench()
        #expect(
            bench.firmware.perform(line: Array("{nope".utf8)).line
                == #"{"ok":false,"error":{"code":"not-json","message":"not JSON at column 2: "#
                + #"expected a key in double quotes (a trailing comma is not allowed)"}}"#
        )
        let unknown = try bench.reply(#"{"id":3,"command":"update-service","service":"_nope._udp"}"#)
        #expect(unknown["ok"] as? Bool == false)
        #expect((unknown["error"] as? [String: Any])?["code"] as? String == "unknown-service")
        #expect(unknown["id"] as? Int == 3)
        #expect(try bench.state.readIdentity()?.boots == 1)
    }

    /// `enter-pin` with no pairing waiting for a PIN is refused with its own code, and neither the
    /// reply nor the accessory's events repeat the digits (they may be someone's PIN).
    @Test func aPINNobodyAskedForIsRefusedAndNotRepeated() throws {
        let bench = try Bench()
        let line = #"{"id":"e","command":"enter-pin","pin":"482915"}"#
        let reply = try bench.reply(line)
        #expect(reply["ok"] as? Bool == false)
        #expect((reply["error"] as? [String: Any])?["code"] as? String == "no-pin-wanted")
        #expect(!bench.firmware.perform(line: Array(line.utf8)).line.contains("482915"))
        #expect(!bench.events.contains { $0.json.serialized.contains("482915") })
    }
}

import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// cfg80211 refuses a frame whose transmitter address is not the interface's (EINVAL; on a 6.12
/// kernel every frame of an accessory whose profile fixed its NMI was refused): on the USD path a
/// station that attaches with another NMI gives the interface that address, and closing the radio
/// puts the interface's own back.
@Suite(.serialized) struct NL80211RadioAddressTests {
    /// The address changes asked for, in order; fails with `failure` when set.
    final class AddressRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var changes: [(String, MACAddress)] = []
        var failure: RadioError?

        var seen: [String] { lock.withLock { changes.map { "\($0.0) \($0.1)" } } }

        func set(_ name: String, _ address: MACAddress) throws(RadioError) {
            if let failure { throw failure }
            lock.withLock { changes.append((name, address)) }
        }
    }

    let scheduler = WallClockScheduler()
    static let own = MACAddress(2, 0, 0, 0, 0, 1)
    static let fixed = MACAddress(2, 0x4c, 0x55, 0, 0, 4)

    func radio(path: NL80211DiscoveryPath, kernel: ScriptedKernel, recorder: AddressRecorder) throws -> NL80211Radio {
        let interface = try NL80211Interface(reply: GenericNetlinkMessage(parsing: KernelMessages.newInterface))
        #expect(interface.address == Self.own)
        let setup = NL80211RadioSetup(
            familyID: 0x1c,
            interface: interface,
            wiphy: NL80211Wiphy(index: 0),
            path: path,
            device: path == .nanDevice ? .wirelessDevice(0x1_0000_0002) : .interfaceIndex(3),
            address: interface.address
        )
        return NL80211Radio(
            setup: setup,
            commands: kernel,
            events: nil,
            setInterfaceAddress: { (name, address) throws(RadioError) in try recorder.set(name, address) },
            scheduler: scheduler
        )
    }

    /// A radio on a kernel that answers with cookies, its scheduler running; ``stop(_:)`` ends both.
    func running(_ path: NL80211DiscoveryPath, recorder: AddressRecorder) throws -> NL80211Radio {
        let radio = try radio(path: path, kernel: NL80211RadioFrameTests.cookieKernel(), recorder: recorder)
        scheduler.runInBackground()
        return radio
    }

    func stop(_ radio: NL80211Radio) {
        scheduler.stop()
        radio.close()
    }

    func attach(_ address: MACAddress, to radio: NL80211Radio) throws(AirError) -> any AirPort {
        try scheduler.sync { () throws(AirError) -> any AirPort in
            let port = try radio.attach(
                StationConfiguration(addresses: [address], name: "accessory"),
                receive: { _ in },
                transmitted: { _ in }
            )
            port.listeningChannels = [.channel6]
            return port
        }
    }

    @Test func aStationWithAFixedNMIGivesItToTheInterfaceUntilTheRadioCloses() throws {
        let kernel = NL80211RadioFrameTests.cookieKernel()
        let recorder = AddressRecorder()
        let radio = try radio(path: .unsynchronizedFrames, kernel: kernel, recorder: recorder)
        scheduler.runInBackground()
        defer { scheduler.stop() }
        let first = try attach(Self.own, to: radio)
        #expect(recorder.seen.isEmpty)
        // The accessory reboots with the NMI its profile fixes: the listening period (cookie 0x10)
        // ends, the interface takes the NMI, and listening starts again (0x11).
        scheduler.sync { first.detach() }
        _ = try attach(Self.fixed, to: radio)
        #expect(recorder.seen == ["wlan0 02:4c:55:00:00:04"])
        #expect(radio.address == Self.fixed)
        #expect(kernel.commands == [55, 56, 55])
        radio.close()
        #expect(recorder.seen == ["wlan0 02:4c:55:00:00:04", "wlan0 02:00:00:00:00:01"])
    }

    @Test func aFailedChangeOfAddressRefusesTheStationSayingWhatToDo() throws {
        let recorder = AddressRecorder()
        recorder.failure = .netlink(operation: "SIOCSIFHWADDR on wlan0", code: -1, message: "Operation not permitted")
        let radio = try running(.unsynchronizedFrames, recorder: recorder)
        defer { stop(radio) }
        #expect {
            _ = try attach(Self.fixed, to: radio)
        } throws: { error in
            guard case AirError.unavailable(let reason) = error else { return false }
            return reason.contains("02:4c:55:00:00:04") && reason.contains("Operation not permitted")
                && reason.contains("CAP_NET_ADMIN")
        }
        #expect(radio.address == Self.own)
    }

    /// Two stations cannot both send from one interface: the second NMI is refused, and the
    /// interface keeps the first's address.
    @Test func aSecondStationCannotTakeTheAddressFromTheFirst() throws {
        let recorder = AddressRecorder()
        let radio = try running(.unsynchronizedFrames, recorder: recorder)
        defer { stop(radio) }
        _ = try attach(Self.own, to: radio)
        #expect(throws: AirError.self) { _ = try attach(Self.fixed, to: radio) }
        #expect(recorder.seen.isEmpty)
    }

    /// A NAN device has an address of its own, which the driver sends from.
    @Test func aNANDeviceKeepsItsAddress() throws {
        let recorder = AddressRecorder()
        let radio = try running(.nanDevice, recorder: recorder)
        defer { stop(radio) }
        _ = try attach(Self.fixed, to: radio)
        #expect(recorder.seen.isEmpty)
    }
}

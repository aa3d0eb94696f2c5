import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import AwareRadio

/// A kernel that answers from a script: it records every request and replies with
/// hand-built messages. It lets the radio's setup sequence and frame handling run here,
/// where there is no cfg80211; what it cannot show is that a real driver answers the same way.
final class ScriptedKernel: NL80211Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [NL80211Request] = []
    var respond: (NL80211Request) throws(RadioError) -> [GenericNetlinkMessage]

    init(_ respond: @escaping (NL80211Request) throws(RadioError) -> [GenericNetlinkMessage]) {
        self.respond = respond
    }

    var sent: [NL80211Request] { lock.withLock { requests } }
    var commands: [UInt8] { sent.map(\.message.command) }

    func perform(_ request: NL80211Request) throws(RadioError) -> [GenericNetlinkMessage] {
        lock.withLock { requests.append(request) }
        return try respond(request)
    }
}

@Suite struct NL80211RadioSetupTests {
    static let family: UInt16 = 0x1c
    static let nanWdev: UInt64 = 0x1_0000_0002

    static func wiphyParts(nanFrames: Bool) throws -> [GenericNetlinkMessage] {
        var parts = [
            try GenericNetlinkMessage(parsing: KernelMessages.wiphyPart1),
            try GenericNetlinkMessage(parsing: KernelMessages.wiphyPart2),
        ]
        if nanFrames {
            let types = NetlinkAttribute.nested(12, [.u16(101, 0x00d0), .u16(101, 0x00b0)])
            parts.append(
                GenericNetlinkMessage(
                    familyID: family,
                    command: 3,
                    attributes: [.u32(1, 0), .nested(99, [types]), .nested(100, [types])]
                )
            )
        }
        return parts
    }

    /// The kernel's answers to the setup requests.
    static func kernel(nanFrames: Bool, refuseStartNAN: Bool = false) -> ScriptedKernel {
        ScriptedKernel { (request) throws(RadioError) in
            switch NL80211Constants.Command(rawValue: request.message.command) {
            case .getInterface: return [try GenericNetlinkMessage(parsing: KernelMessages.newInterface)]
            case .getWiphy:
                do { return try wiphyParts(nanFrames: nanFrames) } catch { throw .invalidReply("\(error)") }
            case .newInterface:
                return [
                    GenericNetlinkMessage(
                        familyID: family,
                        command: 7,
                        attributes: [.u32(1, 0), .u32(5, 12), .u64(153, nanWdev), .bytes(6, [2, 0, 0, 0, 0, 5])]
                    )
                ]
            case .startNAN where refuseStartNAN:
                throw .kernelRefused(command: 115, errno: 95, message: "Operation not supported")
            default: return []
            }
        }
    }

    @Test func onAStationInterfaceItRegistersForNANFramesThere() throws {
        let kernel = Self.kernel(nanFrames: false)
        let setup = try NL80211RadioSetup.run(
            interfaceName: "wlan0",
            interfaceIndex: 3,
            familyID: Self.family,
            through: kernel
        )
        #expect(setup.path == .unsynchronizedFrames)
        #expect(setup.device == .interfaceIndex(3))
        #expect(setup.address == MACAddress(2, 0, 0, 0, 0, 1))
        // GET_INTERFACE, GET_WIPHY, then REGISTER_FRAME for SDF, NAF, protected SDF, PASN.
        #expect(kernel.commands == [5, 1, 58, 58, 58, 58])
        #expect(kernel.sent[1].isDump)
        let registrations = kernel.sent.dropFirst(2)
        #expect(registrations.map { $0.message.attribute(91)?.payload } == NL80211FrameRegistration.nan.map(\.match))
        #expect(registrations.allSatisfy { (try? $0.message.attribute(3)?.u32Value()) == 3 })
    }

    @Test func onANANCapableWiphyItCreatesAndStartsANANDevice() throws {
        let kernel = Self.kernel(nanFrames: true)
        let setup = try NL80211RadioSetup.run(
            interfaceName: "wlan0",
            interfaceIndex: 3,
            familyID: Self.family,
            through: kernel
        )
        #expect(setup.path == .nanDevice)
        #expect(setup.device == .wirelessDevice(Self.nanWdev))
        #expect(setup.address == MACAddress(2, 0, 0, 0, 0, 5))
        #expect(kernel.commands == [5, 1, 7, 115, 58, 58, 58, 58])
        let create = kernel.sent[2].message
        #expect(try create.attribute(5)?.u32Value() == 12)
        #expect(create.attribute(204) == .flag(204))
        #expect(try create.attribute(4)?.stringValue() == "aware3")
        let start = kernel.sent[3].message
        #expect(try start.attribute(153)?.u64Value() == Self.nanWdev)
        #expect(try start.attribute(238)?.u8Value() == 128)
        #expect(kernel.sent.dropFirst(4).allSatisfy { (try? $0.message.attribute(153)?.u64Value()) == Self.nanWdev })
    }

    @Test func stopsAtTheFirstRefusalOrMissingCapability() throws {
        let refusing = Self.kernel(nanFrames: true, refuseStartNAN: true)
        #expect(throws: RadioError.kernelRefused(command: 115, errno: 95, message: "Operation not supported")) {
            try NL80211RadioSetup.run(
                interfaceName: "wlan0",
                interfaceIndex: 3,
                familyID: Self.family,
                through: refusing
            )
        }
        #expect(refusing.commands == [5, 1, 7, 115])

        let bare = ScriptedKernel { (request) throws(RadioError) in
            switch NL80211Constants.Command(rawValue: request.message.command) {
            case .getInterface: return [try GenericNetlinkMessage(parsing: KernelMessages.newInterface)]
            case .getWiphy: return [try GenericNetlinkMessage(parsing: KernelMessages.wiphyPart1)]
            default: return []
            }
        }
        let error = #expect(throws: RadioError.self) {
            try NL80211RadioSetup.run(interfaceName: "wlan0", interfaceIndex: 3, familyID: Self.family, through: bare)
        }
        guard case .notNANCapable(let interface, let missing)? = error else {
            Issue.record("expected notNANCapable, got \(String(describing: error))")
            return
        }
        #expect(interface == "wlan0")
        #expect(missing.contains("for NAN USD frames: Action (0x00d0) in NL80211_ATTR_TX_FRAME_TYPES for station"))
        // Nothing was created or registered on a wiphy that cannot carry NAN.
        #expect(bare.commands == [5, 1])

        // A netdev that is not wireless: nl80211 answers ENODEV.
        let wired = ScriptedKernel { (request) throws(RadioError) in
            throw .kernelRefused(command: request.message.command, errno: 19, message: "No such device")
        }
        #expect(
            throws: RadioError.notNANCapable(
                interface: "eth0",
                missing: ["a wiphy: it is not a wireless interface (GET_INTERFACE answered ENODEV)"]
            )
        ) { try NL80211RadioSetup.run(interfaceName: "eth0", interfaceIndex: 2, familyID: Self.family, through: wired) }
        #expect(wired.commands == [5])
    }
}

@Suite(.serialized) struct NL80211RadioFrameTests {
    /// What a port saw, read on the scheduler.
    final class Seen {
        var receptions: [Reception] = []
        var statuses: [TxStatus] = []
    }

    let scheduler = WallClockScheduler()

    /// Attaches a station at 02:00:00:00:00:01 whose receptions and TX statuses land in `seen`,
    /// with the radio's errors collected in `errors` when given. On the scheduler.
    func attachStation(to radio: NL80211Radio, seen: Seen, errors: ErrorLog? = nil) throws -> any AirPort {
        try scheduler.sync { () throws(AirError) -> any AirPort in
            if let errors { radio.errorHandler = { errors.entries.append($0) } }
            return try radio.attach(
                StationConfiguration(addresses: [MACAddress(2, 0, 0, 0, 0, 1)], name: "station"),
                receive: { seen.receptions.append($0) },
                transmitted: { seen.statuses.append($0) }
            )
        }
    }

    /// The radio's errors, appended on the scheduler.
    final class ErrorLog {
        var entries: [RadioError] = []
    }

    /// The TX statuses `seen` holds once there are `count`, or after a second.
    func awaitStatuses(in seen: Seen, count: Int) -> [TxStatus] {
        var statuses: [TxStatus] = []
        for _ in 0..<200 where statuses.count < count {
            usleep(5_000)
            statuses = scheduler.sync { seen.statuses }
        }
        return statuses
    }

    func radio(path: NL80211DiscoveryPath, kernel: ScriptedKernel) throws -> NL80211Radio {
        let interface = try NL80211Interface(reply: GenericNetlinkMessage(parsing: KernelMessages.newInterface))
        var wiphy = NL80211Wiphy(index: 0)
        wiphy.maxRemainOnChannelDuration = 3000
        let setup = NL80211RadioSetup(
            familyID: 0x1c,
            interface: interface,
            wiphy: wiphy,
            path: path,
            device: path == .nanDevice ? .wirelessDevice(0x1_0000_0002) : .interfaceIndex(3),
            address: interface.address
        )
        return NL80211Radio(setup: setup, commands: kernel, events: nil, scheduler: scheduler)
    }

    /// Replies with a cookie to FRAME (0x70, 0x71, ...) and REMAIN_ON_CHANNEL (0x10, 0x11, ...).
    static func cookieKernel(refuseFrames: Bool = false) -> ScriptedKernel {
        var frames: UInt64 = 0x70
        var periods: UInt64 = 0x10
        return ScriptedKernel { (request) throws(RadioError) in
            switch NL80211Constants.Command(rawValue: request.message.command) {
            case .frame:
                if refuseFrames { throw .kernelRefused(command: 59, errno: 16, message: "Device or resource busy") }
                defer { frames += 1 }
                return [GenericNetlinkMessage(familyID: 0x1c, command: 59, attributes: [.u64(88, frames)])]
            case .remainOnChannel:
                defer { periods += 1 }
                return [GenericNetlinkMessage(familyID: 0x1c, command: 55, attributes: [.u64(88, periods)])]
            default:
                return []
            }
        }
    }

    @Test func usdPathListensSendsAndReportsAcknowledgements() throws {
        let kernel = Self.cookieKernel()
        let radio = try radio(path: .unsynchronizedFrames, kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let port = try attachStation(to: radio, seen: seen)
        // Listening on channels 6 and 149 keeps one remain-on-channel period on 2437 MHz, no
        // longer than the wiphy allows (3000 ms here).
        scheduler.sync { port.listeningChannels = [.channel6, .channel149] }
        #expect(kernel.commands == [55])
        #expect(try kernel.sent[0].message.attribute(38)?.u32Value() == 2437)
        #expect(try kernel.sent[0].message.attribute(87)?.u32Value() == 3000)

        scheduler.sync { port.transmit(TxRequest(frame: KernelMessages.sdf, channel: .channel149, cookie: 42)) }
        let frame = kernel.sent[1].message
        #expect(frame.command == 59)
        #expect(try frame.attribute(38)?.u32Value() == 5745)
        #expect(frame.attribute(108) == .flag(108))
        #expect(frame.attribute(51)?.payload == KernelMessages.sdf)

        // The kernel's TX status for cookie 0x70 becomes the role's status for cookie 42.
        scheduler.sync {
            radio.handle(.frameTransmitStatus(NL80211FrameTransmitStatus(cookie: 0x70, acknowledged: true, frame: [])))
            radio.handle(.frameTransmitStatus(NL80211FrameTransmitStatus(cookie: 0x99, acknowledged: true, frame: [])))
        }
        #expect(scheduler.sync { seen.statuses.map(\.cookie) } == [42])
        #expect(scheduler.sync { seen.statuses.map(\.acknowledged) } == [true])

        // Frames on channels the port listens on arrive with the driver's signal; others not.
        scheduler.sync {
            radio.handle(.frame(NL80211ReceivedFrame(frame: KernelMessages.sdf, frequencyMHz: 2437, signalDBm: -60)))
            radio.handle(.frame(NL80211ReceivedFrame(frame: [0xd0], frequencyMHz: 5220, signalDBm: -40)))
            radio.handle(.frame(NL80211ReceivedFrame(frame: [0xd0], frequencyMHz: 2412, signalDBm: -40)))
            radio.handle(.frame(NL80211ReceivedFrame(frame: [0xd1], frequencyMHz: 5745, signalDBm: nil)))
        }
        let receptions = scheduler.sync { seen.receptions }
        #expect(receptions.map(\.frame) == [KernelMessages.sdf, [0xd1]])
        #expect(receptions.map(\.info.channel) == [.channel6, .channel149])
        #expect(receptions.map(\.info.rssiDBm) == [-60, NL80211Radio.assumedSignalDBm])

        // A period that ends is followed by the next; the end of an unknown one changes nothing.
        scheduler.sync { radio.handle(.remainOnChannelEnded(cookie: 0x55)) }
        #expect(kernel.commands == [55, 59])
        scheduler.sync { radio.handle(.remainOnChannelEnded(cookie: 0x10)) }
        #expect(kernel.commands == [55, 59, 55])

        // Leaving the air cancels the period in force (cookie 0x11).
        scheduler.sync { port.detach() }
        #expect(kernel.commands == [55, 59, 55, 56])
        #expect(try kernel.sent[3].message.attribute(88)?.u64Value() == 0x11)
    }

    @Test func aRefusedFrameIsReportedAsNotAcknowledgedAndToTheOperator() throws {
        let kernel = Self.cookieKernel(refuseFrames: true)
        let radio = try radio(path: .unsynchronizedFrames, kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let errors = ErrorLog()
        let port = try attachStation(to: radio, seen: seen, errors: errors)
        scheduler.sync { port.transmit(TxRequest(frame: [0xd0], channel: .channel6, cookie: 7)) }
        let statuses = awaitStatuses(in: seen, count: 1)
        #expect(statuses.map(\.cookie) == [7])
        #expect(statuses.map(\.acknowledged) == [false])
        #expect(
            scheduler.sync { errors.entries }
                == [.kernelRefused(command: 59, errno: 16, message: "Device or resource busy")]
        )
    }

    /// What a Linux 6.12 kernel answered when the interface went away (`iw dev wlan0 del`: ENODEV,
    /// 19) or down (ENETDOWN, 100, for commands that need a running interface): the radio names
    /// each for what it is, once, and the hosts stop on it (``RadioError/endsTheRadio``). A
    /// refused frame is not in the capture: it never went on the air.
    @Test(arguments: [
        (
            Int32(19),
            RadioError.radioLost(
                interface: "wlan0",
                reason: "the kernel answered errno 19 (No such device) to nl80211 command 59"
            )
        ),
        (Int32(100), RadioError.interfaceDown(name: "wlan0")),
    ])
    func aRadioThatWentAwayOrDownIsReportedOnceAndEndsTheRadio(errno: Int32, expected: RadioError) throws {
        let message = errno == 19 ? "No such device" : "Network is down"
        let kernel = ScriptedKernel { (request) throws(RadioError) in
            switch NL80211Constants.Command(rawValue: request.message.command) {
            case .frame: throw .kernelRefused(command: 59, errno: errno, message: message)
            case .remainOnChannel:
                return [GenericNetlinkMessage(familyID: 0x1c, command: 55, attributes: [.u64(88, 1)])]
            default: return []
            }
        }
        let radio = try radio(path: .unsynchronizedFrames, kernel: kernel)
        let tap = Recorder()
        radio.addTap(tap)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let errors = ErrorLog()
        let port = try attachStation(to: radio, seen: seen, errors: errors)
        for cookie in UInt64(1)...3 {
            scheduler.sync { port.transmit(TxRequest(frame: [0xd0, 0x00], channel: .channel6, cookie: cookie)) }
        }
        let statuses = awaitStatuses(in: seen, count: 3)
        #expect(statuses.map(\.acknowledged) == [false, false, false])
        #expect(scheduler.sync { errors.entries } == [expected])
        #expect(expected.endsTheRadio)
        #expect(!RadioError.kernelRefused(command: 59, errno: 16, message: "Device or resource busy").endsTheRadio)
        #expect(scheduler.sync { tap.frames }.isEmpty)
    }

    @Test func aFrameTheKernelTookIsCapturedOnce() throws {
        let radio = try radio(path: .unsynchronizedFrames, kernel: Self.cookieKernel())
        let tap = Recorder()
        radio.addTap(tap)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let port = try attachStation(to: radio, seen: Seen())
        scheduler.sync { port.transmit(TxRequest(frame: [0xd0, 0x00, 0x01], channel: .channel6, cookie: 1)) }
        #expect(scheduler.sync { tap.frames } == [[0xd0, 0x00, 0x01]])
    }

    /// sysfs's `/sys/class/net/IFACE/flags` is hex with IFF_UP in bit 0 (`linux/if.h`): what the
    /// kernel showed for wlan0 up (0x1003) and down (0x1002).
    @Test func readsWhetherAnInterfaceIsDownFromItsFlags() {
        #expect(NL80211Radio.isDown(flags: "0x1003\n") == false)
        #expect(NL80211Radio.isDown(flags: "0x1002\n") == true)
        #expect(NL80211Radio.isDown(flags: "up") == nil)
        #expect(NL80211Radio.isDown(flags: "0x") == nil)
    }

    /// Every radio's TX statuses and remain-on-channel events reach every listener of `mlme`, and
    /// mac80211 numbers cookies per radio: two hwsim radios both had "remain on freq 2437 (cookie 1)".
    /// Only this radio's device counts (this one: ifindex 3, wdev 1).
    @Test func onlyEventsAboutThisRadiosDeviceCount() throws {
        let radio = try radio(path: .unsynchronizedFrames, kernel: Self.cookieKernel())
        defer { radio.close() }
        func ended(_ attributes: [NetlinkAttribute]) -> GenericNetlinkMessage {
            GenericNetlinkMessage(familyID: 0x1c, command: 56, attributes: attributes + [.u64(88, 0x10)])
        }
        #expect(radio.concernsThisRadio(ended([.u32(3, 3), .u64(153, 1)])))
        #expect(!radio.concernsThisRadio(ended([.u32(3, 9), .u64(153, 0x1_0000_0001)])))
        #expect(radio.concernsThisRadio(ended([.u64(153, 1)])))
        #expect(!radio.concernsThisRadio(ended([.u64(153, 2)])))
        #expect(radio.concernsThisRadio(ended([])))
    }

    /// When the kernel drops events (the event socket overflowed, ENOBUFS), what they would have
    /// said is made up for: frames waiting for a TX status count as not acknowledged, the listening
    /// period is cancelled and asked for again, and the operator hears it once.
    @Test func lostEventsAreMadeUpFor() throws {
        #expect(NL80211Socket.isOverrun(.netlink(operation: "nl_recv", code: -5, message: "Out of memory")))
        #expect(!NL80211Socket.isOverrun(.netlink(operation: "nl_recv", code: -4, message: "Try again")))
        let kernel = Self.cookieKernel()
        let radio = try radio(path: .unsynchronizedFrames, kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let errors = ErrorLog()
        let port = try attachStation(to: radio, seen: seen, errors: errors)
        scheduler.sync {
            port.listeningChannels = [.channel6]
            port.transmit(TxRequest(frame: [0xd0, 0x00], channel: .channel6, cookie: 9))
        }
        #expect(kernel.commands == [55, 59])
        scheduler.sync {
            radio.eventsWereLost()
            radio.eventsWereLost()
        }
        let statuses = awaitStatuses(in: seen, count: 1)
        #expect(statuses.map(\.cookie) == [9])
        #expect(statuses.map(\.acknowledged) == [false])
        // Cancel period 0x10, ask for a new one; the second loss cancels 0x11 and asks again.
        #expect(kernel.commands == [55, 59, 56, 55, 56, 55])
        #expect(scheduler.sync { errors.entries } == [.eventsLost(interface: "wlan0")])
    }

    final class Recorder: AirTap, @unchecked Sendable {
        var frames: [[UInt8]] = []
        func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
            frames.append(frame)
        }
    }

    @Test func aNANDeviceLeavesTimingToTheDriver() throws {
        let kernel = Self.cookieKernel()
        let radio = try radio(path: .nanDevice, kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let port = try scheduler.sync { () throws(AirError) -> any AirPort in
            try radio.attach(
                StationConfiguration(addresses: [MACAddress(2, 0, 0, 0, 0, 5)], name: "accessory"),
                receive: { _ in },
                transmitted: { _ in }
            )
        }
        scheduler.sync {
            port.listeningChannels = [.channel6]
            port.transmit(TxRequest(frame: [0xd0], channel: .channel6, cookie: 1))
        }
        // No remain-on-channel, and the frame has no frequency: the driver sends it in a DW.
        #expect(kernel.commands == [59])
        #expect(kernel.sent[0].message.attributes.map(\.type) == [153, 51])
        #expect(
            throws: AirError.addressInUse(MACAddress(2, 0, 0, 0, 0, 5))
        ) {
            try scheduler.sync { () throws(AirError) -> any AirPort in
                try radio.attach(
                    StationConfiguration(addresses: [MACAddress(2, 0, 0, 0, 0, 5)], name: "again"),
                    receive: { _ in },
                    transmitted: { _ in }
                )
            }
        }
    }
}

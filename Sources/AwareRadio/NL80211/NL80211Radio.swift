import AwareCore
import AwareWire
import Foundation

/// A real radio driven through nl80211 (`--air nl80211:IFACE`): an ``Air`` on the wall-clock
/// scheduler, so the accessory and phone roles run over it unchanged.
///
/// Opening it finds the interface (`GET_INTERFACE`), reads its wiphy (`GET_WIPHY`, split
/// dump) and picks a ``NL80211DiscoveryPath``; then frames the roles build go out with
/// `NL80211_CMD_FRAME`, frames they want come back through `NL80211_CMD_REGISTER_FRAME`
/// (``NL80211FrameRegistration/nan``), and `FRAME_TX_STATUS` becomes their ``TxStatus``.
/// On the USD path it keeps the radio on the listening channel with back-to-back
/// remain-on-channel periods, as wpa_supplicant's NAN USD listen does. On the function-offload
/// path the roles' SDFs become `ADD_NAN_FUNCTION` functions and `NAN_MATCH` events become SDFs
/// (`NL80211Radio+Offload.swift`); only PASN frames travel whole there.
///
/// Hardware acknowledges and passes up only unicast frames addressed to its own MAC, and cfg80211
/// refuses a frame whose transmitter address is not the interface's (EINVAL,
/// `cfg80211_mlme_mgmt_tx`): on the USD path a station that attaches with another NMI gives the
/// interface its address (``attach(_:receive:transmitted:)``), as a device's NMI is its MAC.
///
/// Threads: everything runs on ``wallClock``'s executor (commands go through a socket used
/// only there), except a reader thread that blocks on the event socket, parses events and
/// posts them to the executor. `@unchecked Sendable` for the same reasons as ``SocketAir``.
///
/// Verified on a real kernel with mac80211_hwsim radios (ci/uml), not on hardware;
/// docs/guides/nl80211.md says what is.
public final class NL80211Radio: Air, @unchecked Sendable {
    public let wallClock: WallClockScheduler
    public var scheduler: any EventScheduler { wallClock }
    /// The interface named on the command line.
    public let interface: NL80211Interface
    public let wiphy: NL80211Wiphy
    public let path: NL80211DiscoveryPath
    /// Where frames go: the NAN device this radio created, or the interface itself.
    public let device: NL80211Device
    /// The hardware address frames must be sent to for this radio to hear them.
    public var address: MACAddress? { addressLock.withLock { currentAddress } }
    private let addressLock = NSLock()
    private var currentAddress: MACAddress?
    /// The interface's own address when a station gave it another (USD path), put back at close.
    private var originalAddress: MACAddress?
    /// How the interface's address is changed: `NL80211Socket.setAddress(of:to:)`; a test records.
    let setInterfaceAddress: @Sendable (String, MACAddress) throws(RadioError) -> Void
    /// How long a command waits for the kernel's answer; nl80211 answers at once, so this only
    /// bounds a hang.
    static let replyTimeoutSeconds = 2
    /// How often the event reader looks whether the radio was closed.
    static let readerWakeMilliseconds = 200
    /// The RSSI reported when the driver gives none.
    public static let assumedSignalDBm = -50

    let familyID: UInt16
    let commands: any NL80211Transport
    /// The socket the reader thread reads; nil when a test drives ``handle(_:)`` itself.
    let events: NL80211Socket?
    var ports: [Port] = []
    var taps: [any AirTap] = []
    /// Kernel cookies of frames sent, waiting for their `FRAME_TX_STATUS`.
    var pending: [UInt64: (port: Port, requestCookie: UInt64)] = [:]
    /// The remain-on-channel period in force (USD path).
    var listening: (cookie: UInt64, frequencyMHz: UInt32)?
    /// Offload path: what the wiphy lacks for PASN frames on the NAN device (empty: pairing runs).
    public let pairingMissing: [String]
    /// Offload path: the function standing for each role instance, by the sending station's
    /// address (A2) and the role's instance ID.
    var functions: [MACAddress: [UInt8: NL80211OffloadedFunction]] = [:]
    /// Offload path: follow-up functions the driver has not yet reported ended, by cookie, with
    /// when they were added.
    var followUps: [UInt64: Instant] = [:]
    /// Offload path: synthetic SDFs from matches, waiting for a station to listen on channel 6.
    var heldMatches: [[UInt8]] = []
    /// Offload path: errors already reported (a NAN beacon is refused every DW; once is enough).
    var reportedOffloadErrors: Set<NL80211OffloadError> = []
    /// Offload path: the periodic check for functions the roles stopped sending.
    var idleCheck: ScheduledWork?
    /// Told, on the scheduler, what the offload path did with functions.
    public var offloadNoticeHandler: ((NL80211OffloadNotice) -> Void)?
    /// Told, on the scheduler, when the kernel refuses a frame or a remain-on-channel request:
    /// the roles only see a frame that was not acknowledged, the operator should see why. An
    /// error whose ``RadioError/endsTheRadio`` holds (the interface went down or away) comes once;
    /// the hosts then stop with exit status 3.
    public var errorHandler: ((RadioError) -> Void)?
    /// Whether an error that ends the radio was reported.
    var radioEnded = false
    /// Whether lost events were reported (once is enough).
    var reportedEventLoss = false
    private let readerFinished = DispatchSemaphore(value: 0)
    private let closeLock = NSLock()
    private var closed = false

    /// Finds `interfaceName`, checks its wiphy and sets up the chosen path
    /// (``NL80211RadioSetup``). Throws ``RadioError/nl80211Unavailable(reason:)`` without
    /// cfg80211, ``RadioError/interfaceNotFound(name:)`` and
    /// ``RadioError/notNANCapable(interface:missing:)``.
    public convenience init(interfaceName: String, scheduler: WallClockScheduler) throws(RadioError) {
        let events = try NL80211Socket.open()
        let family = try events.resolveNL80211()
        let familyID = family.id
        let index = try NL80211Socket.interfaceIndex(named: interfaceName)
        let setup = try NL80211RadioSetup.run(
            interfaceName: interfaceName,
            interfaceIndex: index,
            familyID: familyID,
            through: events
        )
        // The USD path sends and listens through the interface itself; cfg80211 would refuse
        // every frame and remain-on-channel with ENETDOWN. Said once, now, instead.
        if setup.path == .unsynchronizedFrames, Self.interfaceIsDown(named: interfaceName) {
            throw RadioError.interfaceDown(name: interfaceName)
        }
        try events.join(multicastGroup: "mlme", of: family)
        // Kernels before 4.9 have no "nan" group; only the NAN paths need its events.
        if setup.path != .unsynchronizedFrames || family.multicastGroups[NL80211Constants.nanMulticastGroup] != nil {
            try events.join(multicastGroup: NL80211Constants.nanMulticastGroup, of: family)
        }
        // The reader wakes this often to notice close(): a netlink socket ignores shutdown(2),
        // and a radio that went away sends no more events to wake it.
        try events.setReceiveTimeout(milliseconds: Self.readerWakeMilliseconds)
        let commands = try NL80211Socket.open()
        try commands.setReceiveTimeout(seconds: Self.replyTimeoutSeconds)
        self.init(setup: setup, commands: commands, events: events, scheduler: scheduler)
    }

    /// A radio whose setup is done; commands go through `commands`, and `events` (when given)
    /// is read by a thread of its own.
    init(
        setup: NL80211RadioSetup,
        commands: any NL80211Transport,
        events: NL80211Socket?,
        setInterfaceAddress: @escaping @Sendable (String, MACAddress) throws(RadioError) -> Void = {
            (name, address) throws(RadioError) in try NL80211Socket.setAddress(of: name, to: address)
        },
        scheduler: WallClockScheduler
    ) {
        wallClock = scheduler
        familyID = setup.familyID
        interface = setup.interface
        wiphy = setup.wiphy
        path = setup.path
        device = setup.device
        currentAddress = setup.address
        self.setInterfaceAddress = setInterfaceAddress
        pairingMissing = setup.pairingMissing
        self.commands = commands
        self.events = events
        if events != nil { startReader() } else { readerFinished.signal() }
    }

    deinit {
        close()
    }

    public func attach(
        _ station: StationConfiguration,
        receive: @escaping (Reception) -> Void,
        transmitted: @escaping (TxStatus) -> Void
    ) throws(AirError) -> any AirPort {
        for address in station.addresses where ports.contains(where: { $0.station.addresses.contains(address) }) {
            throw .addressInUse(address)
        }
        if path == .unsynchronizedFrames, let wanted = station.addresses.first, wanted != address {
            try adopt(wanted)
        }
        let port = Port(station: station, radio: self, receive: receive, transmitted: transmitted)
        ports.append(port)
        return port
    }

    public func addTap(_ tap: any AirTap) {
        taps.append(tap)
    }

    /// Stops the reader and closes the event socket, which holds the frame registrations and the
    /// NAN device this radio created (the command socket goes with the radio). Safe from any
    /// thread and more than once.
    public func close() {
        let first = closeLock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        events?.shutdown()
        readerFinished.wait()
        // Best effort: the interface goes back to its own address (a failure leaves the NMI on it,
        // which the next radio on it gives up the same way).
        if let original = addressLock.withLock({ originalAddress }), let name = interface.name {
            try? setInterfaceAddress(name, original)
        }
        // Now, not when the last reference goes: the frame registrations (and a socket-owned NAN
        // device) belong to this socket, and cfg80211 refuses the same registration from the next
        // radio on the interface with EALREADY while it lives (`cfg80211_mlme_register_mgmt`).
        events?.close()
    }

    var isClosed: Bool { closeLock.withLock { closed } }

    /// Gives the interface `wanted` as its address, for a station whose NMI it is (USD path, no other
    /// station attached): the listening period ends (the interface goes down and up,
    /// `NL80211Socket.setAddress(of:to:)`) and starts again when the station listens.
    private func adopt(_ wanted: MACAddress) throws(AirError) {
        let name = interface.name ?? "the interface"
        guard ports.allSatisfy({ !$0.attached }) else {
            throw .unavailable(
                "nl80211:\(name) carries frames from its own address only, \(address.map { "\($0)" } ?? "unknown"), "
                    + "which another station on it uses; \(wanted) cannot send there as well"
            )
        }
        if let listening {
            self.listening = nil
            _ = try? commands.perform(
                .cancelRemainOnChannel(familyID: familyID, device: device, cookie: listening.cookie)
            )
        }
        do throws(RadioError) {
            try setInterfaceAddress(name, wanted)
        } catch {
            throw .unavailable(
                "nl80211:\(name) sends frames only from its own address (\(address.map { "\($0)" } ?? "unknown")), "
                    + "and giving it the NMI \(wanted) failed: \(error). Run with CAP_NET_ADMIN, or let the "
                    + "accessory use the interface's address (no radio.nmi in the profile, no --nmi, a fresh --state-dir)"
            )
        }
        addressLock.withLock {
            if originalAddress == nil { originalAddress = currentAddress }
            currentAddress = wanted
        }
    }

    /// Whether `name` is administratively down: IFF_UP (0x1, `linux/if.h`) clear in
    /// `/sys/class/net/NAME/flags`. False when that cannot be read (no sysfs): the kernel's
    /// ENETDOWN then says it at the first frame instead.
    static func interfaceIsDown(named name: String) -> Bool {
        guard let text = try? String(contentsOfFile: "/sys/class/net/\(name)/flags", encoding: .utf8) else {
            return false
        }
        return isDown(flags: text) ?? false
    }

    /// Reads sysfs's `flags` text ("0x1003\n"): whether IFF_UP is clear, nil if it is not hex.
    static func isDown(flags text: String) -> Bool? {
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard digits.hasPrefix("0x"), let flags = UInt32(digits.dropFirst(2), radix: 16) else { return nil }
        return flags & 0x1 == 0
    }

    func detach(_ port: Port) {
        ports.removeAll { $0 === port }
        pending = pending.filter { $0.value.port !== port }
        if path == .functionOffload {
            for owner in port.station.addresses { deleteFunctions(of: owner, why: "the station left the air") }
        }
        listeningChanged()
    }

    private func startReader() {
        guard let events else { return }
        let finished = readerFinished
        let scheduler = wallClock
        weak let radio = self
        let thread = Thread {
            while radio.map({ !$0.isClosed }) ?? false {
                let received: [NetlinkReceivedMessage]
                do throws(RadioError) {
                    received = try events.receive()
                } catch .malformedMessage {
                    continue  // One bad datagram; the next may be fine.
                } catch let error where NL80211Socket.isTimeout(error) {
                    continue  // Nothing came: look again whether the radio was closed.
                } catch let error where NL80211Socket.isOverrun(error) {
                    // The kernel dropped events for this socket (ENOBUFS): the socket still works,
                    // but what was lost has to be made up for.
                    scheduler.post { radio?.eventsWereLost() }
                    continue
                } catch {
                    break  // The socket itself failed: nothing more will come.
                }
                if received.isEmpty { break }
                for case .generic(let message) in received {
                    guard radio?.concernsThisRadio(message) ?? false, let event = try? NL80211Event(message) else {
                        continue
                    }
                    scheduler.post { radio?.handle(event) }
                }
            }
            finished.signal()
        }
        thread.name = "NL80211Radio reader"
        thread.start()
    }
}

// MARK: - Port

extension NL80211Radio {
    /// A station's attachment to an ``NL80211Radio``. It hears nothing until
    /// ``listeningChannels`` is set; on the USD path that setting moves the radio's
    /// remain-on-channel period.
    public final class Port: AirPort {
        public let station: StationConfiguration
        public var listeningChannels: Set<NANChannel> = [] {
            didSet { if attached { radio?.listeningChanged() } }
        }
        let receive: (Reception) -> Void
        let transmitted: (TxStatus) -> Void
        weak var radio: NL80211Radio?
        var attached = true

        init(
            station: StationConfiguration,
            radio: NL80211Radio,
            receive: @escaping (Reception) -> Void,
            transmitted: @escaping (TxStatus) -> Void
        ) {
            self.station = station
            self.radio = radio
            self.receive = receive
            self.transmitted = transmitted
        }

        public func transmit(_ request: TxRequest) {
            guard attached else { return }
            radio?.transmit(request, from: self)
        }

        public func detach() {
            guard attached else { return }
            attached = false
            radio?.detach(self)
        }
    }
}

// MARK: - NL80211RadioSetup

/// What opening a radio established: the interface, its wiphy, the chosen path and the device
/// frames go through. ``run(interfaceIndex:familyID:through:)`` is the setup sequence, kept
/// apart from the sockets so it can be checked against a scripted kernel.
struct NL80211RadioSetup: Hashable, Sendable {
    var familyID: UInt16
    var interface: NL80211Interface
    var wiphy: NL80211Wiphy
    var path: NL80211DiscoveryPath
    var device: NL80211Device
    var address: MACAddress?
    /// On the function-offload path: what the wiphy lacks for PASN Authentication frames on
    /// the NAN device (``NL80211DiscoveryPath/missingForOffloadPairing(_:)``); empty when
    /// pairing can run, and on the other paths.
    var pairingMissing: [String] = []

    /// The master preference this radio starts NAN with: an ordinary device's, neither the
    /// reserved 1 / 255 nor high enough to make it the likely anchor master.
    static let masterPreference: UInt8 = 128
    /// ENODEV (`asm-generic/errno-base.h`).
    static let noSuchDevice: Int32 = 19

    /// GET_INTERFACE, GET_WIPHY (split dump), the path choice; on the NAN-device and
    /// function-offload paths NEW_INTERFACE (NAN, socket-owned) and START_NAN; then
    /// REGISTER_FRAME for every frame discovery and pairing need (on the offload path only PASN
    /// Authentication frames, and only where the NAN interface type allows them). `transport` must be the socket that will read the events:
    /// registrations and a socket-owned NAN device's events go to it alone.
    static func run(
        interfaceName: String,
        interfaceIndex: UInt32,
        familyID: UInt16,
        through transport: any NL80211Transport
    ) throws(RadioError) -> NL80211RadioSetup {
        let replies: [GenericNetlinkMessage]
        do {
            replies = try transport.perform(.getInterface(familyID: familyID, interfaceIndex: interfaceIndex))
        } catch .kernelRefused(_, Self.noSuchDevice, _) {
            // nl80211 answers ENODEV for a netdev without a wireless device (eth0, lo).
            throw RadioError.notNANCapable(
                interface: interfaceName,
                missing: ["a wiphy: it is not a wireless interface (GET_INTERFACE answered ENODEV)"]
            )
        }
        guard let reply = replies.first else {
            throw RadioError.invalidReply("no reply to GET_INTERFACE for \(interfaceName)")
        }
        let interface = try NL80211Interface(reply: reply)
        let wiphy = try NL80211Wiphy(dump: try transport.perform(.getWiphy(familyID: familyID, wiphy: interface.wiphy)))
        let path = try NL80211DiscoveryPath.select(interface: interface, wiphy: wiphy)
        let device: NL80211Device
        let address: MACAddress?
        var registrations = NL80211FrameRegistration.nan
        var pairingMissing: [String] = []
        switch path {
        case .nanDevice, .functionOffload:
            let request = NL80211Request.newNANInterface(
                familyID: familyID,
                wiphy: interface.wiphy,
                name: "aware\(interfaceIndex)"
            )
            guard let created = try transport.perform(request).first else {
                throw RadioError.invalidReply("no reply to NEW_INTERFACE")
            }
            let nan = try NL80211Interface(reply: created)
            guard let wdev = nan.wdev else {
                throw RadioError.missingAttribute(
                    command: created.command,
                    attribute: NL80211Constants.Attribute.wdev.rawValue
                )
            }
            device = .wirelessDevice(wdev)
            address = nan.address
            // Bands 0: "don't care", the driver's own choice (`nl80211_start_nan`).
            _ = try transport.perform(
                try .startNAN(familyID: familyID, device: device, masterPreference: masterPreference, bands: 0)
            )
            if path == .functionOffload {
                // The driver's discovery engine consumes SDFs itself; only PASN Authentication
                // frames are registered, and only where the NAN interface type may carry them.
                pairingMissing = NL80211DiscoveryPath.missingForOffloadPairing(wiphy)
                registrations = pairingMissing.isEmpty ? [.pasnAuthentication] : []
            }
        case .unsynchronizedFrames:
            guard let netdev = interface.device else {
                throw RadioError.invalidReply(
                    "GET_INTERFACE for ifindex \(interfaceIndex) names neither ifindex nor wdev"
                )
            }
            device = netdev
            address = interface.address
        }
        for registration in registrations {
            _ = try transport.perform(.registerFrame(familyID: familyID, device: device, registration: registration))
        }
        return NL80211RadioSetup(
            familyID: familyID,
            interface: interface,
            wiphy: wiphy,
            path: path,
            device: device,
            address: address,
            pairingMissing: pairingMissing
        )
    }
}

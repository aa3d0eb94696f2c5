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
/// remain-on-channel periods, as wpa_supplicant's NAN USD listen does.
///
/// Hardware acknowledges and passes up only unicast frames addressed to its own MAC, so a
/// station on this air should use ``address`` as its NMI.
///
/// Threads: everything runs on ``wallClock``'s executor (commands go through a socket used
/// only there), except a reader thread that blocks on the event socket, parses events and
/// posts them to the executor. `@unchecked Sendable` for the same reasons as ``SocketAir``.
///
/// Not verified on hardware: this machine has no cfg80211 (docs/nl80211.md says what is).
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
    public let address: MACAddress?
    /// The RSSI reported when the driver gives none.
    public static let assumedSignalDBm = -50

    let familyID: UInt16
    let commands: NL80211Socket
    let events: NL80211Socket
    var ports: [Port] = []
    var taps: [any AirTap] = []
    /// Kernel cookies of frames sent, waiting for their `FRAME_TX_STATUS`.
    var pending: [UInt64: (port: Port, requestCookie: UInt64)] = [:]
    /// The remain-on-channel period in force (USD path).
    var listening: (cookie: UInt64, frequencyMHz: UInt32)?
    private let readerFinished = DispatchSemaphore(value: 0)
    private let closeLock = NSLock()
    private var closed = false

    /// Finds `interfaceName`, checks its wiphy and sets up the chosen path. Throws
    /// ``RadioError/nl80211Unavailable(reason:)`` without cfg80211,
    /// ``RadioError/interfaceNotFound(name:)`` and ``RadioError/notNANCapable(interface:missing:)``.
    public init(interfaceName: String, scheduler: WallClockScheduler) throws(RadioError) {
        wallClock = scheduler
        let events = try NL80211Socket.open()
        familyID = try events.resolveFamily()
        let index = try NL80211Socket.interfaceIndex(named: interfaceName)
        guard
            let reply = try events.perform(.getInterface(familyID: familyID, interfaceIndex: index)).first
        else { throw RadioError.invalidReply("no reply to GET_INTERFACE for \(interfaceName)") }
        interface = try NL80211Interface(reply: reply)
        wiphy = try NL80211Wiphy(dump: try events.perform(.getWiphy(familyID: familyID, wiphy: interface.wiphy)))
        path = try NL80211DiscoveryPath.select(interface: interface, wiphy: wiphy)
        switch path {
        case .nanDevice:
            // Created from the event socket with SOCKET_OWNER: it disappears with the
            // process, and its NAN events come to the socket that reads them.
            let request = NL80211Request.newNANInterface(
                familyID: familyID,
                wiphy: interface.wiphy,
                name: "aware\(index)"
            )
            guard let created = try events.perform(request).first else {
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
            _ = try events.perform(
                try .startNAN(familyID: familyID, device: device, masterPreference: 128, bands: 0)
            )
        case .unsynchronizedFrames:
            guard let netdev = interface.device else {
                throw RadioError.invalidReply("GET_INTERFACE for \(interfaceName) names neither ifindex nor wdev")
            }
            device = netdev
            address = interface.address
        }
        for registration in NL80211FrameRegistration.nan {
            _ = try events.perform(.registerFrame(familyID: familyID, device: device, registration: registration))
        }
        try events.join(multicastGroup: "mlme")
        try events.join(multicastGroup: NL80211Constants.nanMulticastGroup)
        commands = try NL80211Socket.open()
        self.events = events
        startReader()
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
        let port = Port(station: station, radio: self, receive: receive, transmitted: transmitted)
        ports.append(port)
        return port
    }

    public func addTap(_ tap: any AirTap) {
        taps.append(tap)
    }

    /// Stops the reader and closes both sockets (which removes the NAN device this radio
    /// created). Safe from any thread and more than once.
    public func close() {
        let first = closeLock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        events.shutdown()
        readerFinished.wait()
    }

    var isClosed: Bool { closeLock.withLock { closed } }

    func detach(_ port: Port) {
        ports.removeAll { $0 === port }
        pending = pending.filter { $0.value.port !== port }
        listeningChanged()
    }

    private func startReader() {
        let events = events
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
                } catch {
                    break  // The socket itself failed: nothing more will come.
                }
                if received.isEmpty { break }
                for case .generic(let message) in received {
                    guard let event = try? NL80211Event(message) else { continue }
                    scheduler.post { radio?.handle(event) }
                }
            }
            finished.signal()
        }
        thread.name = "NL80211Radio reader"
        thread.start()
    }
}

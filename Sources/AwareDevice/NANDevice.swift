import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire
import Logging

/// A NAN device: the sans-I/O machines (synchronization and discovery) driven over an
/// ``Air``. It feeds them what the air delivers, and each machine's ``MachineDriver`` carries
/// out what it asks with the scheduler's time and the device's one seeded ``DeviceRandom``:
/// transmit, arm and cancel timers. The device itself tunes the receiver when a machine asks
/// (`listen`) and tells its ``delegate`` the rest.
///
/// Both the emulated accessory and the runner's phone are one of these; what makes them
/// differ is the commands they give and the notifications they act on. Everything runs on
/// the air's scheduler, so a device needs no locks.
public final class NANDevice {
    public let configuration: Configuration
    private let air: any Air
    var port: (any AirPort)?
    /// Set in `init`, once `self` can be captured; the machine is ``discovery``.
    private var discoveryDriver: MachineDriver<DiscoveryEngine>!
    /// nil when unsynchronized (USD).
    private var synchronizationDriver: MachineDriver<SynchronizationEngine>?

    /// Hears everything the machines report and may filter frames at the edge, on the
    /// scheduler. Weak: the owner keeps itself (or the object it sets here) alive.
    public weak var delegate: (any NANDeviceDelegate)?
    /// Frames heard that are not 802.11 management frames this device can parse.
    public private(set) var undecodableFrames = 0
    /// The device's pairing (``PairingManager``, which installs itself): every PASN
    /// Authentication frame addressed to this device and every Follow-up goes to it.
    public internal(set) var pairing: PairingManager?
    /// The NM-TKs of paired peers, applied to frames at the edge (nan-wire-reference.md 3.8).
    public private(set) var protection = PairwiseProtection()
    /// The data paths this device carries (``openDataLink(_:)``).
    let dataPlane = DataPlane()
    /// Receives every MSDU that arrives on an open data path: the device's ``AppTransport``,
    /// which registers itself.
    public weak var dataReceiver: (any DataReceiver)?
    /// Runs the device's data paths: it receives every NAF of the data-path exchange (Data Path
    /// Request to Termination) and of an NDL's schedule addressed to this device, and hears of
    /// lost data links and cluster changes. The ``DataPathManager`` registers itself.
    weak var dataPathManager: DataPathManager?
    /// What synchronization (or discovery, when unsynchronized) last asked the receiver for.
    private var requestedChannels: Set<NANChannel> = []
    /// Frames the owner sent (PASN, data-path NAFs) while the radio was in a discovery window
    /// on another channel, in order: they go out when the window ends (``transmitFrame(_:)``).
    private var heldFrames: [TxRequest] = []
    /// The owner's unicast frames on their way, by cookie (``transmitFrame(_:delivered:)``).
    private var ownerFrames: [UInt64: OwnerFrame] = [:]
    private var nextOwnerCookie: UInt64 = 1
    /// What this device says of itself in every NAF and in the SDFs of its data-path services
    /// (nan-wire-reference.md 2.6; ``DataPathAdvertisement``). nil sends none: only a fault
    /// does that.
    public var deviceCapability: DeviceCapabilityAttribute? = .bench() {
        didSet { refreshDataPathAdvertisement() }
    }
    /// The data-channel schedule the device offers (the potential entry of its NAN Availability);
    /// nil advertises no data paths in its SDFs (``advertiseDataPaths(offering:)``).
    var dataPathOffer: NDPSchedule?
    /// The NAN Availability last advertised, and its Sequence ID (2.7): the ID moves on whenever
    /// the content changes, because a peer keeps the availability it has and ignores one whose
    /// Sequence ID is not newer (hostap `nan_avail_info`: "Ignore peer avail update").
    var advertisedAvailability: AvailabilityAttribute?
    var availabilitySequenceID: UInt8 = 0
    /// The Device Capability each peer last sent, by NMI (hostap keeps the same per peer and
    /// picks NDP or NDPE by it). Bounded: a flood of made-up transmitters cannot grow it.
    var peerCapabilities: [MACAddress: DeviceCapabilityAttribute] = [:]
    static let peerCapabilityLimit = 256

    public init(configuration: Configuration, air: any Air, seed: UInt64) {
        self.configuration = configuration
        self.air = air
        protection = PairwiseProtection(ownAddress: configuration.address)
        var discoveryConfiguration = DiscoveryConfiguration(
            address: configuration.address,
            mode: configuration.synchronization == nil
                ? .unsynchronized(channel: configuration.usdChannel) : .synchronized,
            transmitPowerDBm: configuration.transmitPowerDBm,
            reportsRejectedPublishes: configuration.reportsRejectedPublishes
        )
        if let period = configuration.announcementPeriod { discoveryConfiguration.announcementPeriod = period }
        // One generator for both machines: their draws interleave in the order events reach them.
        // The drivers are the device's own and never outlive it, so their closures hold it unowned
        // (cheaper than a weak load on every action).
        let random = DeviceRandom(seed: seed)
        discoveryDriver = MachineDriver(
            DiscoveryEngine(configuration: discoveryConfiguration),
            scheduler: air.scheduler,
            random: random,
            transmit: { [unowned self] request in transmit(request) },
            notify: { [unowned self] notification in discoveryNotified(notification) }
        )
        synchronizationDriver = configuration.synchronization.map { synchronization in
            MachineDriver(
                SynchronizationEngine(configuration: synchronization),
                scheduler: air.scheduler,
                random: random,
                transmit: { [unowned self] request in transmit(request) },
                notify: { [unowned self] notification in synchronizationNotified(notification) }
            )
        }
    }

    /// The discovery machine; the device sets its ``DiscoveryEngine/dataPathAdvertisement``.
    var discovery: DiscoveryEngine {
        get { discoveryDriver.machine }
        set { discoveryDriver.machine = newValue }
    }

    public var scheduler: any EventScheduler { air.scheduler }
    public var now: Instant { air.scheduler.now }
    public var isStarted: Bool { port != nil }

    /// Joins the air and starts the machines. In synchronized mode the device first scans
    /// for a cluster, then joins one or forms its own.
    public func start() throws(AirError) {
        guard port == nil else { return }
        let station = StationConfiguration(
            addresses: [configuration.address, configuration.dataInterfaceAddress],
            position: configuration.position,
            name: configuration.name
        )
        port = try air.attach(
            station,
            receive: { [weak self] reception in self?.received(reception) },
            transmitted: { [weak self] status in self?.transmitted(status) }
        )
        if let synchronizationDriver {
            synchronizationDriver.handle(.start)
        } else {
            requestedChannels = [configuration.usdChannel]
            applyListening()
        }
    }

    /// Gives the discovery machine a command (publish, subscribe, follow-up, cancel, update).
    public func perform(_ command: DiscoveryCommand) {
        discoveryDriver.handle(.command(command))
    }

    /// Leaves the air; timers are cancelled and nothing more is sent or heard.
    public func stop() {
        synchronizationDriver?.handle(.stop)
        discoveryDriver.stop()
        synchronizationDriver?.stop()
        stopDataPlane()
        heldFrames.removeAll()
        ownerFrames.removeAll()
        port?.detach()
        port = nil
    }

    /// Installs the NM-TK for `peer`: unicast SDFs and NAFs to it are protected from now on,
    /// and unprotected ones from it are dropped.
    public func installPairwiseKey(peer: MACAddress, key: [UInt8], cipher: PASNCipher) {
        protection.install(peer: peer, key: key, cipher: cipher)
    }

    /// Forgets the NM-TK for `peer` (the pairing ended; hostap `nan_pairing_unpair_peer`).
    public func removePairwiseKey(peer: MACAddress) { protection.remove(peer: peer) }

    /// Fault injection: deliver unprotected unicast frames from paired peers.
    public var acceptsUnprotectedFromPairedPeers: Bool {
        get { protection.acceptsUnprotectedFromPairedPeers }
        set { protection.acceptsUnprotectedFromPairedPeers = newValue }
    }

    /// Sends a frame the owner built (PASN Authentication frames, data-path NAFs), through the
    /// outbound filter. A synchronized radio in a discovery window on another channel is tuned
    /// there, and so is its peer in the same cluster: a frame for the home channel sent then, or
    /// so shortly before that its link-layer retries run into the window, goes unheard
    /// (`aware-bench soak` lost PASN frames 3 and Data Path Requests and Terminations that way),
    /// so it waits for the window to end.
    ///
    /// A unicast frame the air reports unacknowledged goes again, up to ``ownerFrameAttempts``
    /// times in all, as the data plane's frames do: the socket air gives a frame one
    /// transmission, and two processes' windows end a few milliseconds apart on a loaded host,
    /// so a frame sent as ours ends can reach a peer still in its own (a PASN frame 3 lost so
    /// left the phone paired and the accessory timed out). `delivered` hears the last status:
    /// whether the peer acknowledged the frame.
    public func transmitFrame(_ request: TxRequest, delivered: ((Bool) -> Void)? = nil) {
        var request = request
        if request.cookie == 0, Self.isIndividuallyAddressed(request.frame) {
            request.cookie = Self.ownerCookieTag << 56 | nextOwnerCookie
            nextOwnerCookie = (nextOwnerCookie &+ 1) & 0x00FF_FFFF_FFFF_FFFF
            ownerFrames[request.cookie] = OwnerFrame(request: request, attempt: 1, delivered: delivered)
        } else if let delivered {
            scheduler.schedule(at: now) { delivered(false) }
        }
        sendOwnerFrame(request)
    }

    private func sendOwnerFrame(_ request: TxRequest) {
        if waitsForWindow(request.channel) {
            heldFrames.append(request)
            return
        }
        transmit(request)
    }

    /// Whether a frame handed to ``transmitFrame(_:delivered:)`` still waits for its window or
    /// its TX status: what a device that is about to leave the air waits for, so that its last
    /// words (a Data Path Termination) are said.
    public var ownerFramesPending: Bool { !ownerFrames.isEmpty || !heldFrames.isEmpty }

    /// Transmissions of a unicast frame ``transmitFrame(_:delivered:)`` makes in all, as the
    /// data plane's ``DataPlane/attempts``.
    static let ownerFrameAttempts = 3
    /// The top octet of the cookies of the owner's unicast frames, so their TX status comes back
    /// here: 'O', unlike the discovery ('D') and synchronization ('S') engines' and the data
    /// plane's (top bit set).
    static let ownerCookieTag: UInt64 = 0x4F

    struct OwnerFrame {
        var request: TxRequest
        var attempt: Int
        var delivered: ((Bool) -> Void)?
    }

    /// The owner's frame with `status.cookie` was sent: done when acknowledged or out of
    /// attempts, else again.
    private func ownerFrameTransmitted(_ status: TxStatus) {
        guard var frame = ownerFrames.removeValue(forKey: status.cookie) else { return }
        guard !status.acknowledged, frame.attempt < Self.ownerFrameAttempts else {
            frame.delivered?(status.acknowledged)
            return
        }
        frame.attempt += 1
        ownerFrames[status.cookie] = frame
        sendOwnerFrame(frame.request)
    }

    /// An owner's frame that never reached the air (a filter or the protection dropped it, or
    /// the device is stopped): not acknowledged.
    private func ownerFrameDropped(_ request: TxRequest) {
        guard request.cookie >> 56 == Self.ownerCookieTag,
            let frame = ownerFrames.removeValue(forKey: request.cookie)
        else { return }
        if let delivered = frame.delivered { scheduler.schedule(at: now) { delivered(false) } }
    }

    /// Room for a frame's link-layer retries (7 attempts, backoff up to CWmax) before a window:
    /// they took up to 13 ms in the soak; 20 TU.
    static let retryRoomMicroseconds: UInt64 = 20 * 1_024

    /// Whether a frame for `channel` must wait: the radio is in a discovery window on another
    /// channel, or one opens there within ``retryRoomMicroseconds``.
    private func waitsForWindow(_ channel: NANChannel) -> Bool {
        guard let windows = configuration.synchronization?.channels, !requestedChannels.isEmpty else { return false }
        if !requestedChannels.contains(channel) { return true }
        guard let cluster else { return false }
        let local = Int64(truncatingIfNeeded: now.nanoseconds / 1_000)
        let tsf = UInt64(clamping: local &+ cluster.tsfOffsetMicroseconds)
        return windows.contains { other in
            other != channel
                && DiscoveryWindowTiming.nextWindowStart(atOrAfter: tsf, on: other) - tsf < Self.retryRoomMicroseconds
        }
    }

    /// Frames ``transmitFrame(_:)`` held whose channel the radio is tuned to again, in order.
    private func sendHeldFrames() {
        guard heldFrames.contains(where: { requestedChannels.contains($0.channel) }) else { return }
        let ready = heldFrames.filter { requestedChannels.contains($0.channel) }
        heldFrames.removeAll { requestedChannels.contains($0.channel) }
        for request in ready { transmit(request) }
    }

    /// The channel the device listens on outside discovery windows: channel 6 when synchronized
    /// (nan-wire-reference.md 1.4), its USD channel otherwise. Frames sent outside the windows
    /// (PASN) go there, or the peer, back on this channel, would not hear them.
    public var homeChannel: NANChannel { configuration.synchronization == nil ? configuration.usdChannel : .channel6 }

    /// The cluster the device is in, when synchronized.
    public var cluster: ClusterStatus? { synchronizationDriver?.machine.cluster }

    // MARK: - Feeding the machines

    /// Frames the device heard but could not use; never keys or PINs.
    static let logger = Logger(label: "awarebench.device")

    private func received(_ reception: Reception) {
        // Data frames (type 2) belong to the data plane (nan-wire-reference.md 4).
        if reception.frame.count >= 2, reception.frame[0] & 0x0C == 0x08 {
            dataReceived(reception)
            return
        }
        let bytes: [UInt8]
        switch protection.inbound(reception.frame) {
        case .deliver(let octets): bytes = octets
        case .drop(let reason):
            let transmitter = reception.frame.count >= 16 ? MACAddress(reception.frame[10..<16]) : nil
            delegate?.device(self, didNotify: .frameDropped(reason: reason, transmitter: transmitter))
            return
        }
        guard var frame = ReceivedFrame(bytes: bytes, info: reception.info) else {
            undecodableFrames += 1
            Self.logger.debug(
                "ignored a frame it cannot decode",
                metadata: ["device": "\(configuration.address)", "octets": "\(bytes.count)"]
            )
            return
        }
        if let delegate {
            guard let filtered = delegate.device(self, filterInbound: frame) else { return }
            frame = filtered
        }
        notePeerCapability(frame)
        if case .pasnAuthentication = frame.frame.body {
            if frame.frame.header.address1 == configuration.address { pairing?.pasnFrameReceived(frame) }
            return
        }
        if Self.isDataPathFrame(frame) {
            if frame.frame.header.address1 == configuration.address { dataPathManager?.received(frame) }
            return
        }
        if let synchronizationDriver {
            synchronizationDriver.handle(.received(frame))
        } else if case .nanBeacon(let beacon) = frame.frame.body {
            heardBeacon(beacon, in: frame)
        }
        discoveryDriver.handle(.received(frame))
    }

    private func transmitted(_ status: TxStatus) {
        if status.cookie & DataPlane.cookieBit != 0 {
            dataTransmitted(status)
            return
        }
        if status.cookie >> 56 == Self.ownerCookieTag {
            ownerFrameTransmitted(status)
            return
        }
        discoveryDriver.handle(.transmitted(status))
    }

    // MARK: - What the machines report

    /// The receiver request is the device's own business (the delegate never sees it); the
    /// rest goes to the delegate.
    private func discoveryNotified(_ notification: DiscoveryNotification) {
        if case .listen(let channels) = notification {
            // In synchronized mode the synchronization machine tunes the receiver.
            if synchronizationDriver == nil {
                requestedChannels = channels
                applyListening()
            }
            return
        }
        // Bootstrapping and the NIK exchange ride in Follow-ups (nan-wire-reference.md 3.2, 3.6):
        // the device's pairing hears them before the delegate does.
        if case .followUpReceived(let message) = notification { pairing?.followUpReceived(message) }
        delegate?.device(self, didNotify: .discovery(notification))
    }

    /// Synchronization tunes the receiver (and releases frames held for the window), opens and
    /// closes discovery's windows, and moves the data slots with a new cluster TSF, before the
    /// delegate hears of it.
    private func synchronizationNotified(_ notification: SynchronizationNotification) {
        switch notification {
        case .listen(let channels):
            requestedChannels = channels
            applyListening()
            sendHeldFrames()
            return
        case .discoveryWindowStarted(let window): discoveryDriver.handle(.discoveryWindowStarted(window))
        case .discoveryWindowEnded(let window): discoveryDriver.handle(.discoveryWindowEnded(window))
        // A cluster formed or joined brings its TSF: the data slots move with it.
        case .clusterStarted, .clusterJoined, .clusterTimeAdjusted: dataClusterTimeChanged()
        default: break
        }
        delegate?.device(self, didNotify: .synchronization(notification))
    }

    /// The receiver's channels: what the machines asked for, plus the data channel in the
    /// slots of open data paths.
    func applyListening() {
        let channels = requestedChannels.union(dataPlane.listeningOnData)
        if port?.listeningChannels != channels { port?.listeningChannels = channels }
    }

    /// Sends a frame through the outbound filter, without management-frame protection (data
    /// frames carry their own).
    func transmitRaw(_ request: TxRequest) {
        var request = request
        if let delegate {
            guard let filtered = delegate.device(self, filterOutbound: request) else {
                dataTransmitted(TxStatus(cookie: request.cookie, acknowledged: false, timestamp: now))
                return
            }
            request = filtered
        }
        port?.transmit(request)
    }

    private func transmit(_ request: TxRequest) {
        var request = request
        if let delegate {
            guard let filtered = delegate.device(self, filterOutbound: request) else {
                return ownerFrameDropped(request)
            }
            request = filtered
        }
        request.frame = protection.outbound(request.frame)
        guard !request.frame.isEmpty, let port else { return ownerFrameDropped(request) }
        port.transmit(request)
    }
}

// MARK: - Delegate

/// The owner of a ``NANDevice``: hears what its machines report and may rewrite or drop frames
/// at the edge, between the machines and the air. Called on the air's scheduler.
public protocol NANDeviceDelegate: AnyObject {
    /// Everything the machines report, but the receiver requests the device carries out itself.
    func device(_ device: NANDevice, didNotify notification: DeviceNotification)
    /// Sees every frame before the machines do; nil drops it. Fault injection and tests use
    /// this; a conforming device passes every frame unchanged (the default).
    func device(_ device: NANDevice, filterInbound frame: ReceivedFrame) -> ReceivedFrame?
    /// Sees every frame before the air does; nil drops it. The default passes it unchanged.
    func device(_ device: NANDevice, filterOutbound request: TxRequest) -> TxRequest?
}

extension NANDeviceDelegate {
    public func device(_ device: NANDevice, filterInbound frame: ReceivedFrame) -> ReceivedFrame? { frame }
    public func device(_ device: NANDevice, filterOutbound request: TxRequest) -> TxRequest? { request }
}

/// What a device's machines report: all but their `listen` requests, which the device carries
/// out itself.
public enum DeviceNotification: Hashable, Sendable {
    case discovery(DiscoveryNotification)
    case synchronization(SynchronizationNotification)
    /// A frame the pairwise protection refused (nan-wire-reference.md 3.8).
    case frameDropped(reason: PairwiseProtection.DropReason, transmitter: MACAddress?)
    /// A data frame a secured data path refused.
    case dataFrameDropped(DataLinkID, reason: PairwiseProtection.DropReason)
}

extension NANDevice {
    /// Whether A1 of `frame` is an individual address: a frame some station acknowledges.
    static func isIndividuallyAddressed(_ frame: [UInt8]) -> Bool {
        guard frame.count >= 10, let receiver = MACAddress(frame[4..<10]) else { return false }
        return !receiver.isGroup
    }

    /// A NAF of the data-path exchange: Data Path Request (5) to Termination (9), and the NDL
    /// schedule NAFs, Schedule Request (10) to Update Notification (13) (nan-wire-reference.md
    /// 1.2, 4.1).
    static func isDataPathFrame(_ frame: ReceivedFrame) -> Bool {
        guard case .nanAction(let action) = frame.frame.body else { return false }
        switch action.subtype {
        case .dataPathRequest, .dataPathResponse, .dataPathConfirm, .dataPathKeyInstallment, .dataPathTermination,
            .scheduleRequest, .scheduleResponse, .scheduleConfirm, .scheduleUpdateNotification:
            return true
        default:
            return false
        }
    }
}

// MARK: - Configuration

extension NANDevice {
    /// Who a device is and how it discovers.
    public struct Configuration: Hashable, Sendable {
        /// For logs and captures ("accessory", "phone").
        public var name: String
        /// The NAN Management Interface address.
        public var address: MACAddress
        /// Where it stands on the simulated air, in metres.
        public var position: StationConfiguration.Position
        /// nil: unsynchronized service discovery (USD) on ``usdChannel``; otherwise the
        /// device joins or forms a cluster and discovers inside its discovery windows.
        public var synchronization: SynchronizationConfiguration?
        public var usdChannel: NANChannel
        public var transmitPowerDBm: Int
        /// USD announcement period; nil keeps the machine's default (100 ms).
        public var announcementPeriod: Interval?
        public var reportsRejectedPublishes: Bool
        /// The NAN Data Interface address the device's data paths use; the air acknowledges
        /// frames to it as to the NMI.
        public var dataInterfaceAddress: MACAddress

        public init(
            name: String,
            address: MACAddress,
            position: StationConfiguration.Position = .origin,
            synchronization: SynchronizationConfiguration? = nil,
            usdChannel: NANChannel = .channel6,
            transmitPowerDBm: Int = 20,
            announcementPeriod: Interval? = nil,
            reportsRejectedPublishes: Bool = false,
            dataInterfaceAddress: MACAddress? = nil
        ) {
            self.dataInterfaceAddress = dataInterfaceAddress ?? Self.defaultDataInterfaceAddress(for: address)
            self.name = name
            self.address = address
            self.position = position
            self.synchronization = synchronization
            self.usdChannel = usdChannel
            self.transmitPowerDBm = transmitPowerDBm
            self.announcementPeriod = announcementPeriod
            self.reportsRejectedPublishes = reportsRejectedPublishes
        }

        /// The NDI a device uses unless told otherwise: its NMI with bit 2 of the first octet
        /// flipped. It stays a locally administered unicast address, and devices numbered in
        /// sequence (02:c0:00:00:00:f4, 02:c0:00:00:01:f4, ...) never take each other's NMI as
        /// their NDI, which the air would refuse as an address in use.
        public static func defaultDataInterfaceAddress(for nmi: MACAddress) -> MACAddress {
            let octets = nmi.octets
            return MACAddress(octets[0] ^ 0x04, octets[1], octets[2], octets[3], octets[4], octets[5])
        }
    }
}

import AwareCore
import AwareRadio
import AwareWire

/// An air with one listener and no physics, under virtual time: the harness puts frames
/// straight into the station's receiver and sees every frame it sends.
///
/// ``SimulatedAir`` would add contention, airtime and path loss, which cost time per input
/// and decide nothing the protocol machines could get wrong; here every frame the input
/// carries arrives, on a channel the station listens on, at the instant the input says.
public final class MemoryAir: Air {
    public let virtualScheduler = VirtualScheduler()
    public var scheduler: any EventScheduler { virtualScheduler }
    /// Called for every frame a station sends, before its TX status is scheduled.
    public var transmitHandler: ((TxRequest) -> Void)?
    private var ports: [Port] = []

    public init() {}

    public func attach(
        _ station: StationConfiguration,
        receive: @escaping (Reception) -> Void,
        transmitted: @escaping (TxStatus) -> Void
    ) throws(AirError) -> any AirPort {
        let taken = Set(ports.filter(\.attached).flatMap(\.station.addresses))
        if let clash = station.addresses.first(where: taken.contains) { throw .addressInUse(clash) }
        let port = Port(station: station, air: self, receive: receive, transmitted: transmitted)
        ports.append(port)
        return port
    }

    public func addTap(_ tap: any AirTap) {}

    /// Delivers `frame` now to every attached station that listens on some channel (channel 6
    /// when it listens there, as during a discovery window). A station that listens on
    /// nothing hears nothing, as on a real air.
    public func deliver(_ frame: [UInt8], rssiDBm: Int = -45) {
        for port in ports where port.attached {
            let channels = port.listeningChannels
            guard let channel = channels.contains(.channel6) ? .channel6 : channels.min() else { continue }
            port.receive(
                Reception(frame: frame, info: RxInfo(channel: channel, rssiDBm: rssiDBm, timestamp: scheduler.now))
            )
        }
    }

    /// A station's attachment: what it listens on, and a transmit that reports to the
    /// harness and acknowledges unicast frames after a short airtime.
    final class Port: AirPort {
        let station: StationConfiguration
        let receive: (Reception) -> Void
        let transmitted: (TxStatus) -> Void
        weak var air: MemoryAir?
        var attached = true
        var listeningChannels: Set<NANChannel> = []

        init(
            station: StationConfiguration,
            air: MemoryAir,
            receive: @escaping (Reception) -> Void,
            transmitted: @escaping (TxStatus) -> Void
        ) {
            self.station = station
            self.air = air
            self.receive = receive
            self.transmitted = transmitted
        }

        func transmit(_ request: TxRequest) {
            guard attached, let air else { return }
            air.transmitHandler?(request)
            // A unicast frame is acknowledged (the phone the input plays is always there);
            // a group-addressed one never is.
            let unicast = request.frame.count >= 10 && MACAddress(request.frame[4..<10]).map { !$0.isGroup } == true
            let cookie = request.cookie
            air.scheduler.schedule(after: .microseconds(200)) { [weak self] in
                guard let self, self.attached, let air = self.air else { return }
                self.transmitted(TxStatus(cookie: cookie, acknowledged: unicast, timestamp: air.scheduler.now))
            }
        }

        func detach() {
            attached = false
            listeningChannels = []
        }
    }
}

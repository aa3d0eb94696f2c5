import AwareCore
import AwareWire

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

import AwareWire

/// Events between programs that are not radio frames (docs/socket-air.md, message type 3).
/// The first user is the accessory's PIN display: on a shared air it stands in for the eyes of
/// the person who reads the PIN off the accessory and types it into the phone.
public protocol SideChannelAir: AnyObject {
    /// Sends `payload` (UTF-8 JSON) to every other program on the air.
    func publishEvent(_ payload: [UInt8])
    /// Receives the events other programs publish, on the air's scheduler.
    var eventHandler: (([UInt8]) -> Void)? { get set }
}

extension SocketAir: SideChannelAir {
    public func publishEvent(_ payload: [UInt8]) {
        guard !isClosed else { return }
        let datagram = SocketAirDatagram(
            type: .event,
            frequencyMHz: 0,
            signalDBm: 0,
            timestamp: MonotonicClock.unixNanoseconds(),
            cookie: 0,
            address: Self.zeroAddress,
            payload: payload
        )
        broadcast(datagram.bytes)
        counters.count(\.eventsSent)
    }

    func received(event datagram: SocketAirDatagram) {
        counters.count(\.eventsReceived)
        eventHandler?(datagram.payload)
    }
}

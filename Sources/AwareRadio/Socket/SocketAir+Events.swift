import AwareWire

/// Events between programs that are not radio frames (docs/reference/socket-air.md, message type 3).
/// The first user is the accessory's PIN display: on a shared air it stands in for the eyes of
/// the person who reads the PIN off the accessory and types it into the phone.
public protocol SideChannelAir: AnyObject {
    /// Sends `payload` (UTF-8 JSON) to every other program on the air.
    func publishEvent(_ payload: [UInt8])
    /// Receives the events other programs publish, on the air's scheduler.
    var eventHandler: (([UInt8]) -> Void)? { get set }
}

extension SocketAir: SideChannelAir {
    /// In lockstep an event takes effect at a virtual time, as a frame does (the lookahead after
    /// it was published): read whenever its datagram came, a PIN display reached the phone at a
    /// round's end that wall-clock timing chose, so whether the phone had the PIN when it asked
    /// could differ between two runs of one seed.
    public func publishEvent(_ payload: [UInt8]) {
        guard !isClosed else { return }
        let cookie = nextCookie
        nextCookie &+= 1
        var timestamp = MonotonicClock.unixNanoseconds()
        if isLockstep {
            timestamp = wallClock.now.nanoseconds + LockstepClockState.lookahead
            wallClock.lockstepOutput(arrivingAt: timestamp)
        }
        let datagram = SocketAirDatagram(
            type: .event,
            flags: isLockstep ? SocketAirDatagram.flagVirtualTime : 0,
            frequencyMHz: 0,
            signalDBm: 0,
            timestamp: timestamp,
            cookie: cookie,
            address: Self.zeroAddress,
            payload: payload
        )
        broadcast(datagram.bytes)
        counters.count(\.eventsSent)
    }

    func received(event datagram: SocketAirDatagram) {
        counters.count(\.eventsReceived)
        guard isLockstep, datagram.carriesVirtualTime else {
            eventHandler?(datagram.payload)
            return
        }
        wallClock.scheduleArrival(at: datagram.timestamp, sender: datagram.address, token: datagram.cookie) {
            [weak self] in
            self?.eventHandler?(datagram.payload)
        }
    }
}

import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

/// A station on a simulated air that remembers what it heard and what it was told.
final class RecordingStation {
    let address: MACAddress
    var port: SimulatedAir.Port!
    var receptions: [Reception] = []
    var statuses: [TxStatus] = []

    init(
        _ air: SimulatedAir,
        _ last: UInt8,
        at position: StationConfiguration.Position = .origin,
        channels: Set<NANChannel> = [.channel6]
    ) throws {
        address = MACAddress(0x02, 0x00, 0x00, 0x00, 0x00, last)
        port = try air.attachPort(
            StationConfiguration(addresses: [address], position: position, name: "station \(last)"),
            receive: { [unowned self] in self.receptions.append($0) },
            transmitted: { [unowned self] in self.statuses.append($0) }
        )
        port.listeningChannels = channels
    }

    func send(
        to destination: MACAddress,
        length: Int = 100,
        on channel: NANChannel = .channel6,
        power: Int = 20,
        cookie: UInt64 = 0
    ) {
        port.transmit(
            TxRequest(
                frame: testFrame(to: destination, from: address, length: length),
                channel: channel,
                powerDBm: power,
                cookie: cookie
            )
        )
    }
}

/// A tap that keeps what it was shown, without radiotap.
final class ListTap: AirTap {
    struct Seen: Equatable {
        var frame: [UInt8]
        var channel: NANChannel
        var signalDBm: Int
        var time: Instant
    }
    var seen: [Seen] = []

    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
        seen.append(Seen(frame: frame, channel: channel, signalDBm: signalDBm, time: time))
    }
}

/// A public Action frame (Frame Control D0 00, Duration 0, A1, A2, A3 = the NAN Network
/// ID, Sequence Control 0) of exactly `length` octets (at least 24), body 0x04 0x09 then
/// counting octets.
func testFrame(to destination: MACAddress, from source: MACAddress, length: Int = 100) -> [UInt8] {
    var frame: [UInt8] = [0xD0, 0x00, 0x00, 0x00]
    frame += destination.octets + source.octets + MACAddress.nanNetworkID.octets + [0x00, 0x00]
    var body: [UInt8] = [0x04, 0x09]
    while frame.count + body.count < length { body.append(UInt8(truncatingIfNeeded: body.count)) }
    frame += body.prefix(max(0, length - frame.count))
    return frame
}

/// An air whose backoffs are always zero (CWmin = CWmax = 0), so frames start at known
/// instants: DIFS (34 µs) after the medium falls idle.
func deterministicAir(retryLimit: Int = 7, capture: Double? = nil) -> SimulatedAir {
    SimulatedAir(
        configuration: SimulatedAir.Configuration(
            retryLimit: retryLimit,
            contention: ContentionParameters(cwMin: 0, cwMax: 0),
            captureThresholdDB: capture
        )
    )
}

func microseconds(_ value: UInt64) -> Instant { Instant(nanoseconds: value * 1_000) }

import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// Frames the owner sends on the home channel (PASN, data-path NAFs) while both devices of a
/// cluster are in the 5 GHz discovery window, or just before it: they wait for the window to
/// end instead of being retried into a channel nobody listens to. Found by `aware-bench soak`,
/// which lost about one reconnect cycle in 130 that way (a PASN frame 3, a Data Path Request or
/// Termination whose retries ran into the window).
@Suite struct NANDeviceWindowTests {
    @Test func ownerFramesSentAtAnyPointOfTheWindowPeriodAreAllHeard() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 3))
        let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
        let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(
                name: "accessory",
                address: accessoryAddress,
                synchronization: SynchronizationConfiguration(address: accessoryAddress)
            ),
            air: air,
            seed: 4
        )
        let phone = NANDevice(
            configuration: NANDevice.Configuration(
                name: "phone",
                address: phoneAddress,
                position: .init(x: 2, y: 0),
                synchronization: SynchronizationConfiguration(address: phoneAddress, masterPreference: 128)
            ),
            air: air,
            seed: 5
        )
        try accessory.start()
        try phone.start()
        air.virtualScheduler.run(for: .seconds(5))
        #expect(phone.cluster != nil && phone.cluster?.clusterID == accessory.cluster?.clusterID)

        // One frame every 2 TU (plus a little) through a whole 512 TU period, so some go out in
        // the 5 GHz window and some in the 20 TU before it.
        let before = air.statistics
        let start = air.virtualScheduler.now
        let sends = 256
        for index in 0..<sends {
            let at = start + .timeUnits(Int64(2 * index)) + .microseconds(300)
            air.virtualScheduler.schedule(at: at) {
                var frame: [UInt8] = [0xD0, 0x00, 0x00, 0x00]
                frame += accessoryAddress.octets + phoneAddress.octets + MACAddress.nanNetworkID.octets + [0, 0]
                frame += [0x04, 0x09, 0x50, 0x6F, 0x9A, 0x18, UInt8(truncatingIfNeeded: index)]
                phone.transmitFrame(TxRequest(frame: frame, channel: phone.homeChannel))
            }
        }
        air.virtualScheduler.run(for: .seconds(2))
        let after = air.statistics
        #expect(after.acknowledged - before.acknowledged >= sends)
        #expect(after.unacknowledged == before.unacknowledged, "owner frames lost: none may be")
    }
}

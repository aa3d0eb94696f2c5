import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// Part 3 of `datapath`: how fast the simulated air carries data frames, in frames per CPU
/// second of this process, against management frames in a discovery load on the same
/// simulator in the same run.
struct DataPathFrameRate {
    var label: String
    var frames: FrameCounter
    var cpuSeconds: Double
    var virtualSeconds: Double
    var receptions: Int

    /// The frames the run is about: data frames in the data run, management frames in the
    /// baseline.
    var counted: Int
    var perCPUSecond: Double { cpuSeconds > 0 ? Double(counted) / cpuSeconds : 0 }
    var receptionsPerFrame: Double {
        let carried = frames.data + frames.management
        return carried > 0 ? Double(receptions) / Double(carried) : 0
    }

    /// Offered far above the bulk link's capacity (2 000 x 1 024 octets = 16 Mbps): the
    /// accessory's data queue never empties while the schedule is open.
    static let saturatingRateMillihertz: UInt32 = 2_000_000
    static let saturatingPayloadOctets: UInt16 = 1_024
    /// Publishers of the baseline's discovery load (and one passive subscriber).
    static let baselinePublishers = 16
    static let warmUp = Interval.seconds(3)
    /// The discovery load runs this many times the data run's virtual time: its frames are
    /// cheap and few, and a few milliseconds of CPU would be mostly timer noise.
    static let baselineStretch = 10.0

    /// The drone and a phone on a bulk data path with a saturating stream; only the stream's
    /// virtual `seconds` are timed (discovery, pairing and set-up are not).
    static func saturated(profile: AccessoryProfile, seconds: Double, seed: UInt64) throws -> DataPathFrameRate {
        let bench = try DataPathBench(profile: profile, seed: seed)
        bench.accessory.performanceMode = .bulk
        let phone = try bench.addPhone()
        guard let service = profile.services.first(where: { $0.datapath != nil }), let port = service.datapath?.port
        else {
            throw BenchSupport.failure(3, "datapath: the drone profile has no service with a data path")
        }
        let result = try bench.discover(phone, service: service.name)
        try bench.pair(phone, result)
        let (_, session) = try bench.open(phone, result, mode: .bulk, servicePort: UInt16(clamping: port))
        _ = try bench.requestStream(
            session,
            ControlMessage.StreamRequest(
                rateMillihertz: saturatingRateMillihertz,
                payloadOctets: saturatingPayloadOctets,
                durationMilliseconds: UInt32(seconds * 1000) + 1000,
                tid: AccessCategory.bestEffort.tid
            )
        )
        let counter = FrameCounter()
        bench.air.addTap(counter)
        let receptionsBefore = bench.air.statistics.receptions
        let start = CPUClock.seconds()
        bench.run(for: .seconds(seconds))
        let cpu = CPUClock.seconds() - start
        return DataPathFrameRate(
            label: "saturated bulk data path",
            frames: counter,
            cpuSeconds: cpu,
            virtualSeconds: seconds,
            receptions: bench.air.statistics.receptions - receptionsBefore,
            counted: counter.data
        )
    }

    /// The baseline: ``baselinePublishers`` synchronized publishers and a passive subscriber, the
    /// crowd benchmark's discovery load: beacons and SDFs only. Timed after `warmUp`: the
    /// devices scan for a cluster for about 2 s before they send anything.
    static func discoveryLoad(seconds: Double, seed: UInt64) throws -> DataPathFrameRate {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        var devices: [NANDevice] = []
        for index in 0...baselinePublishers {
            let address = BenchSupport.address(tag: index == 0 ? 0xB0 : 0xC0, index: index)
            let angle = Double(index) * 2 * Double.pi / Double(baselinePublishers)
            let device = NANDevice(
                configuration: NANDevice.Configuration(
                    name: index == 0 ? "subscriber" : "publisher-\(index)",
                    address: address,
                    position: index == 0 ? .origin : .init(x: 2 * cos(angle), y: 2 * sin(angle)),
                    synchronization: index == 0
                        ? SynchronizationConfiguration(address: address, masterPreference: 128)
                        : SynchronizationConfiguration(address: address)
                ),
                air: air,
                seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            )
            do {
                try device.start()
            } catch {
                throw BenchSupport.failure(1, "datapath: cannot join the simulated air: \(error)")
            }
            if index == 0 {
                device.perform(.subscribe(SubscribeConfiguration(serviceName: "_load._udp", mode: .passive)))
            } else {
                device.perform(.publish(PublishConfiguration(serviceName: "_load._udp", solicitation: .unsolicited)))
            }
            devices.append(device)
        }
        let start = CPUClock.seconds()
        air.virtualScheduler.run(until: air.virtualScheduler.now + warmUp)
        let counter = FrameCounter()
        air.addTap(counter)
        let receptionsBefore = air.statistics.receptions
        air.virtualScheduler.run(until: air.virtualScheduler.now + .seconds(seconds * baselineStretch))
        let cpu = CPUClock.seconds() - start
        for device in devices { device.stop() }
        return DataPathFrameRate(
            label: "discovery load, \(baselinePublishers) publishers",
            frames: counter,
            cpuSeconds: cpu,
            virtualSeconds: seconds * baselineStretch,
            receptions: air.statistics.receptions - receptionsBefore,
            counted: counter.management
        )
    }

    var json: JSONValue {
        .object([
            ("dataFrames", .unsigned(UInt64(frames.data))),
            ("managementFrames", .unsigned(UInt64(frames.management))),
            ("cpuSeconds", BenchSupport.json(cpuSeconds, 4)),
            ("virtualSeconds", BenchSupport.json(virtualSeconds, 3)),
            ("framesPerCPUSecond", BenchSupport.json(perCPUSecond, 0)),
            ("receptionsPerFrame", BenchSupport.json(receptionsPerFrame, 2)),
        ])
    }

    var line: String {
        "  \(label): \(BenchSupport.grouped(Double(frames.data))) data + "
            + "\(BenchSupport.grouped(Double(frames.management))) management frames in "
            + "\(BenchSupport.fixed(virtualSeconds, 1)) virtual s, \(BenchSupport.fixed(cpuSeconds, 3)) CPU s, "
            + "\(BenchSupport.fixed(receptionsPerFrame, 2)) receptions per frame"
    }
}

/// Counts the frames an air carries by 802.11 frame type (Frame Control bits 2-3, IEEE
/// 802.11-2020 9.2.4.1.3): management 0, control 1, data 2.
final class FrameCounter: AirTap {
    private(set) var management = 0
    private(set) var control = 0
    private(set) var data = 0

    func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
        guard let first = frame.first else { return }
        switch (first >> 2) & 0x03 {
        case 0: management += 1
        case 1: control += 1
        case 2: data += 1
        default: break
        }
    }
}

import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit

/// Part 4 of `datapath`: this process's resident memory (VmRSS) at four points of one run:
/// before anything, the accessory alone (started, 2 virtual s), with `phones` phones paired
/// and no data path, and with `active` of them on a bulk data path with the drone's telemetry
/// flowing for a few virtual seconds. Phones live in this process, so the later figures
/// include them; the paired-phones figure is the baseline that separates them out.
struct DataPathMemory {
    var phones: Int
    var active: Int
    var processStart: UInt64
    var accessoryAlone: UInt64
    var phonesPaired: UInt64
    var dataPathsActive: UInt64
    var telemetryDatagrams: Int

    static func megabytes(_ octets: UInt64) -> Double { Double(octets) / 1_048_576 }
    static func signedMegabytes(_ later: UInt64, _ earlier: UInt64) -> Double {
        (Double(later) - Double(earlier)) / 1_048_576
    }

    static func measure(
        profile drone: AccessoryProfile,
        phones count: Int,
        active: Int,
        seconds: Double,
        seed: UInt64
    ) throws -> DataPathMemory {
        guard let start = ResidentMemory.octets() else {
            throw BenchSupport.failure(3, "datapath: /proc/self/status has no VmRSS (not Linux?)")
        }
        let profile = DataPathBench.variant(drone) { profile in
            let cap = max(profile.pairing?.maxPairedDevices ?? 0, count)
            profile.pairing?.maxPairedDevices = cap
        }
        guard let service = profile.services.first(where: { $0.datapath != nil }), let port = service.datapath?.port
        else {
            throw BenchSupport.failure(3, "datapath: the drone profile has no service with a data path")
        }
        let bench = try DataPathBench(profile: profile, seed: seed)
        bench.run(for: .seconds(2))
        let alone = ResidentMemory.octets() ?? 0
        var results: [DiscoveryResult] = []
        for _ in 0..<count {
            let phone = try bench.addPhone()
            let result = try bench.discover(phone, service: service.name)
            try bench.pair(phone, result)
            results.append(result)
        }
        bench.run(for: .seconds(1))
        let paired = ResidentMemory.octets() ?? 0
        var sessions: [PhoneDataSession] = []
        for index in 0..<min(active, count) {
            let (_, session) = try bench.open(
                bench.phones[index],
                results[index],
                mode: .bulk,
                servicePort: UInt16(clamping: port)
            )
            sessions.append(session)
        }
        bench.run(for: .seconds(seconds))
        let after = ResidentMemory.octets() ?? 0
        let telemetry = sessions.reduce(0) { $0 + ($1.arrivals[1]?.count ?? 0) }
        guard sessions.allSatisfy({ ($0.arrivals[1]?.count ?? 0) > 0 }) else {
            throw BenchSupport.failure(1, "datapath: a data path of the memory run carried no telemetry")
        }
        return DataPathMemory(
            phones: count,
            active: sessions.count,
            processStart: start,
            accessoryAlone: alone,
            phonesPaired: paired,
            dataPathsActive: after,
            telemetryDatagrams: telemetry
        )
    }

    var overAccessory: Double { accessoryAlone > 0 ? Double(dataPathsActive) / Double(accessoryAlone) : 0 }
    var overPaired: Double { phonesPaired > 0 ? Double(dataPathsActive) / Double(phonesPaired) : 0 }

    var json: JSONValue {
        .object([
            ("phones", .unsigned(UInt64(phones))), ("activeDataPaths", .unsigned(UInt64(active))),
            ("telemetryDatagrams", .unsigned(UInt64(telemetry))),
            ("processStartMB", BenchSupport.json(Self.megabytes(processStart), 2)),
            ("accessoryAloneMB", BenchSupport.json(Self.megabytes(accessoryAlone), 2)),
            ("phonesPairedMB", BenchSupport.json(Self.megabytes(phonesPaired), 2)),
            ("dataPathsActiveMB", BenchSupport.json(Self.megabytes(dataPathsActive), 2)),
            ("overAccessoryAlone", BenchSupport.json(overAccessory, 3)),
            ("overPhonesPaired", BenchSupport.json(overPaired, 3)),
        ])
    }

    private var telemetry: Int { telemetryDatagrams }

    var lines: [String] {
        func mb(_ value: UInt64) -> String { BenchSupport.fixed(Self.megabytes(value), 1) + " MB" }
        func delta(_ later: UInt64, _ earlier: UInt64) -> String {
            let value = Self.signedMegabytes(later, earlier)
            return (value >= 0 ? "+" : "") + BenchSupport.fixed(value, 1) + " MB"
        }
        func label(_ text: String) -> String { "  " + text.padding(toLength: 56, withPad: " ", startingAt: 0) }
        return [
            label("process at start (binary, runtime, nothing simulated)") + mb(processStart),
            label("accessory alone, started, 2 virtual s  [baseline 1]") + mb(accessoryAlone)
                + "  (\(delta(accessoryAlone, processStart)))",
            label("+ \(phones) phones paired, no data path  [baseline 2]") + mb(phonesPaired)
                + "  (\(delta(phonesPaired, accessoryAlone)), phones and the accessory's pairing state)",
            label("+ \(active) bulk data paths, telemetry flowing") + mb(dataPathsActive)
                + "  (\(delta(dataPathsActive, phonesPaired)), both ends of \(active) data paths, "
                + "\(BenchSupport.grouped(Double(telemetryDatagrams))) datagrams)",
            "  ratio: \(BenchSupport.fixed(overAccessory, 3)) x accessory alone, "
                + "\(BenchSupport.fixed(overPaired, 3)) x paired phones without data paths",
        ]
    }
}

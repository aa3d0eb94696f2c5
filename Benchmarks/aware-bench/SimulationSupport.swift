import AccessoryKit
import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// What the simulated-air benchmarks share: one timed run of a scheduler, and the numbers
/// an air and its scheduler leave behind.
struct SimulationRun {
    var name: String
    var simulatedSeconds: Double
    var wallSeconds: Double
    var eventsExecuted: UInt64
    var statistics: SimulatedAir.Statistics

    var simulatedPerWallSecond: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }
    var transmissionsPerWallSecond: Double { wallSeconds > 0 ? Double(statistics.transmissions) / wallSeconds : 0 }
    var eventsPerWallSecond: Double { wallSeconds > 0 ? Double(eventsExecuted) / wallSeconds : 0 }

    /// Runs `air`'s scheduler from `now` until `end`, timing only that (set-up is excluded).
    static func measure(_ name: String, air: SimulatedAir, until end: Instant) -> SimulationRun {
        let scheduler = air.virtualScheduler
        let start = scheduler.now
        let executedBefore = scheduler.executedCount
        let clock = ContinuousClock()
        let began = clock.now
        scheduler.run(until: end)
        let wall = BenchSupport.seconds(clock.now - began)
        return SimulationRun(
            name: name,
            simulatedSeconds: (scheduler.now - start).seconds,
            wallSeconds: wall,
            eventsExecuted: scheduler.executedCount - executedBefore,
            statistics: air.statistics
        )
    }

    /// The air's counters as JSON members, keys prefixed with `prefix`.
    func statisticsMembers(_ prefix: String) -> [(String, JSONValue)] {
        let counters: [(String, Int)] = [
            ("FramesQueued", statistics.framesQueued), ("Transmissions", statistics.transmissions),
            ("Retransmissions", statistics.retransmissions), ("Collisions", statistics.collisions),
            ("Receptions", statistics.receptions), ("CollidedReceptions", statistics.collidedReceptions),
            ("MissedReceptions", statistics.missedReceptions),
        ]
        return counters.map { (prefix + $0.0, .unsigned(UInt64(max(0, $0.1)))) }
    }

    /// One line of the air's counters, for people.
    var statisticsLine: String {
        "transmissions \(BenchSupport.grouped(Double(statistics.transmissions))), "
            + "receptions \(BenchSupport.grouped(Double(statistics.receptions))), "
            + "collisions \(BenchSupport.grouped(Double(statistics.collisions))), "
            + "collided receptions \(BenchSupport.grouped(Double(statistics.collidedReceptions))), "
            + "missed receptions \(BenchSupport.grouped(Double(statistics.missedReceptions)))"
    }
}

extension BenchSupport {
    /// A profile: `path` as given if it exists, else the same relative path above the binary
    /// (.build/<triple>/release/aware-bench sits inside the checkout).
    static func loadProfile(path: String) throws -> AccessoryProfile {
        var candidates = [URL(fileURLWithPath: path)]
        if !path.hasPrefix("/") {
            var directory = executableDirectory.standardizedFileURL
            for _ in 0..<8 {
                candidates.append(directory.appendingPathComponent(path))
                directory.deleteLastPathComponent()
            }
        }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw failure(
                3,
                "aware-bench: profile \(path) was found neither here nor above \(executableDirectory.path)"
            )
        }
        do {
            return try ProfileLoader.load(path: found.path)
        } catch {
            throw failure(3, "aware-bench: \(found.path) is not a valid profile: \(error)")
        }
    }

    /// A locally administered NMI, 02:<tag>:<index as four octets>.
    static func address(tag: UInt8, index: Int) -> MACAddress {
        let value = UInt32(truncatingIfNeeded: index)
        return MACAddress(
            0x02,
            tag,
            UInt8(truncatingIfNeeded: value >> 24),
            UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value)
        )
    }
}

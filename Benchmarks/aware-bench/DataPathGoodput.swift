import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit

/// Part 2 of `datapath`: a file pulled from the camera's file service over a bulk data path,
/// goodput (file octets over the virtual time from the request to the verified last octet)
/// against the capacity the performance report models for the same link.
struct DataPathGoodput {
    var file: String
    var octets: UInt64
    var seconds: Double
    var hashMatches: Bool
    var phyRateMbps: Double?
    var capacityMbps: Double?

    var goodputMbps: Double { seconds > 0 ? Double(octets) * 8 / seconds / 1e6 : 0 }
    var ratio: Double? { capacityMbps.flatMap { $0 > 0 ? goodputMbps / $0 : nil } }

    /// The name of the file the benchmark adds to its copy of the camera profile.
    static let addedFile = "BENCH0001.BIN"

    /// The camera profile with `addedOctets` more in a file of its own.
    static func profile(camera: AccessoryProfile, addedOctets: Int) throws -> AccessoryProfile {
        guard camera.app?.fileService != nil else {
            throw BenchSupport.failure(3, "datapath: the camera profile has no file service")
        }
        return DataPathBench.variant(camera) { profile in
            profile.app?.fileService?.files.append(.init(name: addedFile, sizeBytes: addedOctets))
        }
    }

    /// Pairs a phone with the camera, opens one bulk data path to its file service and fetches
    /// `files` on it one after the other.
    static func measure(profile: AccessoryProfile, files: [String], seed: UInt64) throws -> [DataPathGoodput] {
        guard let fileService = profile.app?.fileService,
            let service = profile.services.first(where: { $0.name == fileService.service })
        else {
            throw BenchSupport.failure(3, "datapath: the camera profile's file service is not one of its services")
        }
        let port = UInt16(clamping: fileService.port ?? service.datapath?.port ?? Int(AppPorts.defaultService))
        let bench = try DataPathBench(profile: profile, seed: seed)
        bench.accessory.performanceMode = .bulk
        let phone = try bench.addPhone()
        let result = try bench.discover(phone, service: service.name)
        try bench.pair(phone, result)
        let (link, session) = try bench.open(phone, result, mode: .bulk, servicePort: port, filePort: port)
        var measured: [DataPathGoodput] = []
        for name in files {
            guard let size = fileService.files.first(where: { $0.name == name })?.sizeBytes else {
                throw BenchSupport.failure(3, "datapath: the camera profile has no file \(name)")
            }
            let before = session.fileEvents.count
            let start = bench.now
            session.fetch(name)
            var outcome: FileTransferEvent?
            // Generous: a fifth of the PHY rate would still finish.
            let timeout = Interval.seconds(30 + Double(size) * 8 / 2e6)
            _ = bench.run(timeout) {
                outcome = session.fileEvents.dropFirst(before).first { event in
                    switch event {
                    case .completed, .refused, .interrupted: true
                    default: false
                    }
                }
                return outcome != nil
            }
            guard case .completed(let transfer) = outcome else {
                throw BenchSupport.failure(
                    1,
                    "datapath: fetching \(name) did not complete: \(outcome.map { "\($0)" } ?? "timed out")"
                )
            }
            let end = bench.now
            let report = session.report(
                flowID: 0,
                offered: 0,
                from: start,
                to: end,
                statistics: phone.dataPaths.statistics(link.id)
            )
            measured.append(
                DataPathGoodput(
                    file: name,
                    octets: transfer.receivedBytes,
                    seconds: (end - start).seconds,
                    hashMatches: transfer.expectedSHA256 == transfer.computedSHA256,
                    phyRateMbps: report.throughputCeilingMbps,
                    capacityMbps: report.throughputCapacityMbps
                )
            )
        }
        return measured
    }

    var json: JSONValue {
        .object([
            ("file", .string(file)), ("octets", .unsigned(octets)),
            ("virtualSeconds", BenchSupport.json(seconds, 6)), ("sha256Matches", .bool(hashMatches)),
            ("goodputMbps", BenchSupport.json(goodputMbps, 3)),
            ("phyRateMbps", phyRateMbps.map { BenchSupport.json($0, 1) } ?? .null),
            ("capacityMbps", capacityMbps.map { BenchSupport.json($0, 3) } ?? .null),
            ("goodputOverCapacity", ratio.map { BenchSupport.json($0, 3) } ?? .null),
        ])
    }

    var row: String {
        "  " + file.padding(toLength: 15, withPad: " ", startingAt: 0)
            + BenchSupport.grouped(Double(octets)).leftPadded(13)
            + BenchSupport.fixed(seconds, 3).leftPadded(10)
            + BenchSupport.fixed(goodputMbps, 3).leftPadded(10)
            + (capacityMbps.map { BenchSupport.fixed($0, 3) } ?? "-").leftPadded(10)
            + (ratio.map { BenchSupport.fixed($0, 3) } ?? "-").leftPadded(9)
            + (hashMatches ? "  sha256 ok" : "  SHA256 MISMATCH")
    }

    static let header = "  file                   octets  virtual s  goodput  capacity  ratio  (Mbps)"
}

import ArgumentParser
import AwareCore
import AwareFuzzing
import AwareWire
import Foundation

struct DecodeThroughputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-throughput",
        abstract: "Frames decoded per second for a representative publish SDF, as a ratio to a CRC-32 baseline.",
        discussion: """
            The frame is FrameCorpus.representativePublishSDF: an unsolicited publish with SDA \
            (matching filter), SDEA (DNS-SD TXT vendorName/modelName/pairingName), DCEA, NPBA, \
            Device Capability and NIRA, the frame a phone receives from an accessory every \
            discovery window.

            Measured on one thread, each for --seconds after a short warm-up, as the median of \
            about 10 ms batches:
              baseline "crc32-fcs"  CRC-32 over the same octets: the FCS check every receiver \
                                    already does for every frame, so the cheapest thing done \
                                    with a frame that still touches each octet once
              decode                IEEE80211Frame(bytes:)
              decode+write          decode, then write the value back to octets
              decode+json           decode, then decodedFields rendered as one JSON line \
                                    (what aware-conform decode --json does per frame)

            How to read the ratio: "decode = 12.5 x crc32-fcs" means decoding the frame costs as \
            much time as 12.5 CRC-32s over it. The ratio is measured in one run on one machine, \
            so it moves with the decoder, not with the machine; the frames/s figures are for \
            orientation only.
            """
    )

    @Option(help: "Seconds to measure each case (after a warm-up of a tenth of that).")
    var seconds = 1.0

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
    }

    struct Measurement {
        var name: String
        var framesPerSecond: Double
        var nanosecondsPerFrame: Double { framesPerSecond > 0 ? 1e9 / framesPerSecond : 0 }
    }

    /// Runs `body` in batches for `seconds`, returns the median batch rate in calls per second.
    static func measure(_ name: String, seconds: Double, _ body: () -> Int) -> Measurement {
        let clock = ContinuousClock()
        var batch = 1
        // Warm up and size a batch to about 10 ms.
        let warmUpEnd = clock.now + .milliseconds(Int(seconds * 100))
        while clock.now < warmUpEnd {
            let start = clock.now
            for _ in 0..<batch { Sink.consume(body()) }
            if BenchSupport.seconds(clock.now - start) < 0.01 { batch *= 2 }
        }
        var rates: [Double] = []
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        repeat {
            let start = clock.now
            for _ in 0..<batch { Sink.consume(body()) }
            let elapsed = BenchSupport.seconds(clock.now - start)
            if elapsed > 0 { rates.append(Double(batch) / elapsed) }
        } while clock.now < end
        rates.sort()
        return Measurement(name: name, framesPerSecond: rates.isEmpty ? 0 : rates[rates.count / 2])
    }

    func run() throws {
        let frame = FrameCorpus.representativePublishSDF
        print("decode-throughput: FrameCorpus.representativePublishSDF, \(frame.count) octets, one thread")
        BenchSupport.flush()
        let baseline = Self.measure("crc32-fcs", seconds: seconds) { Int(FrameCheckSequence.crc32(frame)) }
        let decode = Self.measure("decode", seconds: seconds) {
            (try? IEEE80211Frame(bytes: frame)) == nil ? 0 : 1
        }
        let decodeWrite = Self.measure("decode+write", seconds: seconds) {
            (try? IEEE80211Frame(bytes: frame))?.wireBytes.count ?? 0
        }
        let decodeJSON = Self.measure("decode+json", seconds: seconds) {
            (try? IEEE80211Frame(bytes: frame))?.decodedFields.json.serialized.utf8.count ?? 0
        }
        guard (try? IEEE80211Frame(bytes: frame))?.wireBytes == frame,
            FrameCheckSequence.crc32(frame) == CRC32.checksum(frame)
        else {
            throw BenchSupport.failure(
                1,
                "decode-throughput: the frame does not round-trip or the baseline CRC is wrong"
            )
        }

        var members: [(String, JSONValue)] = [
            ("frame", .string("FrameCorpus.representativePublishSDF")),
            ("frameOctets", .unsigned(UInt64(frame.count))),
            ("baseline", .string(baseline.name)),
            ("baselineFramesPerSecond", BenchSupport.json(baseline.framesPerSecond, 0)),
        ]
        print(
            "  \(baseline.name.padding(toLength: 13, withPad: " ", startingAt: 0))"
                + "\(BenchSupport.grouped(baseline.framesPerSecond)) frames/s "
                + "(\(BenchSupport.fixed(baseline.nanosecondsPerFrame, 1)) ns/frame)  [baseline]"
        )
        for (measurement, key) in [(decode, "decode"), (decodeWrite, "decodeWrite"), (decodeJSON, "decodeJSON")] {
            let ratio = measurement.framesPerSecond > 0 ? baseline.framesPerSecond / measurement.framesPerSecond : 0
            print(
                "  \(measurement.name.padding(toLength: 13, withPad: " ", startingAt: 0))"
                    + "\(BenchSupport.grouped(measurement.framesPerSecond)) frames/s "
                    + "(\(BenchSupport.fixed(measurement.nanosecondsPerFrame, 1)) ns/frame) = "
                    + "\(BenchSupport.fixed(ratio, 2)) x \(baseline.name)"
            )
            members.append((key + "FramesPerSecond", BenchSupport.json(measurement.framesPerSecond, 0)))
            members.append((key + "CostInBaselines", BenchSupport.json(ratio, 2)))
        }
        BenchSupport.printJSONLine(benchmark: "decode-throughput", members)
    }
}

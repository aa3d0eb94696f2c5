import AwareCore
import AwareFuzzing
import Foundation
import Testing

@testable import AwareWire

/// The decoder's contract over 100,000 mutated and random frames and 2,000 mutated capture
/// files per run (DecoderRobustness): a WireError, or a value that writes back to exactly
/// the input and renders. No trap: a trap ends the test process.
///
/// The seed is fixed; `AWAREBENCH_SEED=<n>` replaces it, and every failure prints the
/// command that reruns it. The 10-million-frame run is `aware-bench robustness` (release).
@Suite struct RobustnessTests {
    static let defaultSeed: UInt64 = 0x00A3_A2E0_BE00_0001
    static let frameCount = 100_000
    static let captureFileCount = 2_000

    static var seed: UInt64 {
        guard let text = ProcessInfo.processInfo.environment["AWAREBENCH_SEED"] else { return defaultSeed }
        return UInt64(text) ?? UInt64(text.dropFirst(text.hasPrefix("0x") ? 2 : 0), radix: 16) ?? defaultSeed
    }

    static func sessionFrames() throws -> [[UInt8]] {
        let data = try FrameTestSupport.fixture("hostap-session-A/session.pcap")
        return try CaptureReader.read(bytes: Array(data)).map(\.frame)
    }

    static func robustness() throws -> DecoderRobustness {
        DecoderRobustness(frames: FrameCorpus.frames + (try sessionFrames()), seed: seed)
    }

    static func rerun(_ input: DecoderRobustness.Input, seed: UInt64, reason: String) -> String {
        """
        robustness violation: seed \(seed), \(input.kind.rawValue) input \(input.index): \(reason)
        input (\(input.bytes.count) octets): \(HexString.encode(input.bytes))
        rerun: AWAREBENCH_SEED=\(seed) swift test --filter RobustnessTests
        this input alone: swift run -c release aware-bench robustness --seed \(seed) \
        \(input.kind == .captureFile ? "--pcap-index" : "--index") \(input.index)
        """
    }

    /// Checks inputs `0..<count` on two threads (the input of an index does not depend on
    /// the others, so the split changes nothing) and returns the tally and the violations.
    static func run(
        count: Int,
        input: @Sendable @escaping (Int) -> DecoderRobustness.Input
    ) async -> (DecoderRobustness.Tally, [(DecoderRobustness.Input, String)]) {
        let workers = 2
        return await withTaskGroup(of: (DecoderRobustness.Tally, [(DecoderRobustness.Input, String)]).self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var tally = DecoderRobustness.Tally()
                    var violations: [(DecoderRobustness.Input, String)] = []
                    for index in stride(from: worker, to: count, by: workers) {
                        let item = input(index)
                        let outcome = DecoderRobustness.check(item)
                        tally.record(outcome, kind: item.kind)
                        if case .violated(let reason) = outcome, violations.count < 5 {
                            violations.append((item, reason))
                        }
                    }
                    return (tally, violations)
                }
            }
            var tally = DecoderRobustness.Tally()
            var violations: [(DecoderRobustness.Input, String)] = []
            for await (part, found) in group {
                tally.add(part)
                violations += found
            }
            return (tally, violations.sorted { $0.0.index < $1.0.index })
        }
    }

    @Test func everyCorpusFrameDecodesAndWritesBackExactly() throws {
        let robustness = try Self.robustness()
        #expect(robustness.frames.count == FrameCorpus.values.count + 37)
        for (number, frame) in robustness.frames.enumerated() {
            #expect(DecoderRobustness.checkFrame(frame) == .decoded, "corpus frame \(number)")
        }
        for (number, packet) in robustness.radiotapPackets.enumerated() {
            #expect(DecoderRobustness.checkRadiotapPacket(packet) == .decoded, "radiotap packet \(number)")
        }
        for (number, file) in robustness.captureFiles.enumerated() {
            #expect(DecoderRobustness.checkCaptureFile(file) == .decoded, "capture file \(number)")
        }
    }

    @Test func corpusValuesDecodeToThemselves() throws {
        for (number, value) in FrameCorpus.values.enumerated() {
            #expect(try IEEE80211Frame(bytes: value.wireBytes) == value, "corpus value \(number)")
        }
    }

    @Test func representativePublishCarriesTheAttributesOfAPublish() throws {
        let frame = try IEEE80211Frame(bytes: FrameCorpus.representativePublishSDF)
        guard case .serviceDiscovery(let sdf) = frame.managementFrame?.body else {
            Issue.record("not an SDF: \(frame)")
            return
        }
        #expect(sdf.attributes.map(\.id.rawValue) == [0x03, 0x0E, 0x2A, 0x2C, 0x0F, 0x2B])
        guard case .serviceDescriptorExtension(let sdea) = sdf.attributes[1] else {
            Issue.record("no SDEA")
            return
        }
        #expect(sdea.serviceInfo?.serviceSpecificInfo?.txtRecord?.keys == ["vendorName", "modelName", "pairingName"])
        // Service ID of "_drone-service._udp" (nan-wire-reference.md 8.6 rule: first 6
        // octets of SHA-256 of the lower-cased name), computed with `sha256sum`; it follows the
        // 24-octet header, the 6-octet action header and the SDA's 3-octet attribute header.
        #expect(HexString.encode(FrameCorpus.representativePublishSDF[33..<39]) == "3425f17bda31")
    }

    @Test func inputsDependOnlyOnSeedAndIndex() throws {
        let robustness = try Self.robustness()
        let again = try Self.robustness()
        let other = DecoderRobustness(frames: robustness.frames, seed: Self.seed &+ 1)
        for index in [0, 1, 77, 99_999] {
            #expect(robustness.frameInput(at: index).bytes == again.frameInput(at: index).bytes)
            #expect(robustness.captureFileInput(at: index).bytes == again.captureFileInput(at: index).bytes)
        }
        let differing = (0..<50).filter { robustness.frameInput(at: $0).bytes != other.frameInput(at: $0).bytes }
        #expect(differing.count > 40)
    }

    @Test func hundredThousandFramesAnswerWithAValueOrAWireError() async throws {
        let robustness = try Self.robustness()
        let seed = robustness.seed
        let (tally, violations) = await Self.run(count: Self.frameCount) { robustness.frameInput(at: $0) }
        let total = tally.total(DecoderRobustness.frameKinds)
        let decoded = tally.decodedCount(DecoderRobustness.frameKinds)
        let rejected = tally.rejectedCount(DecoderRobustness.frameKinds)
        print("RobustnessTests: seed \(seed), \(total) frames, \(decoded) decoded, \(rejected) rejected")
        for (input, reason) in violations {
            let text = Self.rerun(input, seed: seed, reason: reason)
            print(text)
            Issue.record(Comment(rawValue: text))
        }
        #expect(total == Self.frameCount)
        #expect(tally.violatedCount() == 0)
        // Neither answer may be rare, or the run would test nothing (5 % each at least),
        // and every kind of input must reach the decoder.
        #expect(decoded * 20 >= total, "only \(decoded) of \(total) decoded")
        #expect(rejected * 20 >= total, "only \(rejected) of \(total) rejected")
        for kind in DecoderRobustness.frameKinds {
            #expect(tally.decoded[kind, default: 0] > 100, "\(kind): \(tally.decoded[kind, default: 0]) decoded")
            #expect(tally.rejected[kind, default: 0] > 100, "\(kind): \(tally.rejected[kind, default: 0]) rejected")
        }
    }

    @Test func twoThousandCaptureFilesAnswerWithRecordsOrAWireError() async throws {
        let robustness = try Self.robustness()
        let seed = robustness.seed
        let (tally, violations) = await Self.run(count: Self.captureFileCount) { robustness.captureFileInput(at: $0) }
        let decoded = tally.decodedCount([.captureFile])
        let rejected = tally.rejectedCount([.captureFile])
        print(
            "RobustnessTests: seed \(seed), \(Self.captureFileCount) capture files, \(decoded) read, \(rejected) rejected"
        )
        for (input, reason) in violations {
            let text = Self.rerun(input, seed: seed, reason: reason)
            print(text)
            Issue.record(Comment(rawValue: text))
        }
        #expect(tally.total([.captureFile]) == Self.captureFileCount)
        #expect(tally.violatedCount() == 0)
        #expect(decoded * 20 >= Self.captureFileCount, "only \(decoded) read")
        #expect(rejected * 20 >= Self.captureFileCount, "only \(rejected) rejected")
    }

    /// The IPv6, ICMPv6 and TCP parsers under the same contract, over mutated golden messages
    /// and random octets: a WireError, or a value that writes back to exactly the input. Half
    /// the mutated ICMPv6 and TCP inputs get their checksum fixed so that the body parsers,
    /// not only the checksum check, see them.
    @Test func ipv6ICMPv6AndTCPParsersAnswerWithAValueOrAWireError() {
        let a = ICMPv6Golden.a
        let b = ICMPv6Golden.b
        let icmpSeeds = [
            ICMPv6Golden.neighborSolicitation, ICMPv6Golden.neighborAdvertisement, ICMPv6Golden.echoRequest,
            ICMPv6Golden.echoReply,
        ]
        let tcpSeeds = [TCPGolden.syn, TCPGolden.synAck, TCPGolden.rst]
        let packetSeeds = [ICMPv6Golden.neighborSolicitationPacket, DataFrameGolden.ipv6UDP]
        var generator = SeededGenerator(seed: Self.seed)
        var decoded = [0, 0, 0]
        var rejected = [0, 0, 0]
        let count = 20_000

        func mutated(_ seeds: [[UInt8]]) -> [UInt8] {
            if Int.random(in: 0..<8, using: &generator) == 0 {
                return (0..<Int.random(in: 0..<80, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            }
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0...bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where index < bytes.count: bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
                case 1 where index < bytes.count: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 2: bytes.removeSubrange(index...)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
            }
            return bytes
        }
        func withChecksum(_ bytes: [UInt8], at position: Int, nextHeader: UInt8) -> [UInt8] {
            guard bytes.count >= position + 2, Bool.random(using: &generator) else { return bytes }
            var fixed = bytes
            fixed[position] = 0
            fixed[position + 1] = 0
            let checksum = IPv6Packet.upperLayerChecksum(source: b, destination: a, nextHeader: nextHeader, body: fixed)
            fixed[position] = UInt8(checksum >> 8)
            fixed[position + 1] = UInt8(checksum & 0xFF)
            return fixed
        }

        for index in 0..<count {
            let packet = mutated(packetSeeds)
            do {
                let value = try IPv6Packet(bytes: packet)
                #expect(value.wireBytes == packet, "IPv6 input \(index): \(HexString.encode(packet))")
                _ = value.decodedFields
                decoded[0] += 1
            } catch { rejected[0] += 1 }

            let message = withChecksum(mutated(icmpSeeds), at: 2, nextHeader: IPNextHeader.icmpv6)
            do {
                let value = try ICMPv6Message(bytes: message, source: b, destination: a)
                #expect(
                    value.bytes(source: b, destination: a) == message,
                    "ICMPv6 input \(index): \(HexString.encode(message))"
                )
                _ = value.decodedFields(source: b, destination: a)
                decoded[1] += 1
            } catch { rejected[1] += 1 }

            let segment = withChecksum(mutated(tcpSeeds), at: 16, nextHeader: IPNextHeader.tcp)
            do {
                let value = try TCPSegment(bytes: segment, source: b, destination: a)
                #expect(
                    value.bytes(source: b, destination: a) == segment,
                    "TCP input \(index): \(HexString.encode(segment))"
                )
                _ = (value.maximumSegmentSize, value.decodedFields(source: b, destination: a))
                decoded[2] += 1
            } catch { rejected[2] += 1 }
        }
        print("RobustnessTests: seed \(Self.seed), IPv6/ICMPv6/TCP decoded \(decoded), rejected \(rejected)")
        // Neither answer may be rare, or the run would test nothing (5 % each at least).
        for (name, number) in zip(["IPv6", "ICMPv6", "TCP"], 0..<3) {
            #expect(decoded[number] * 20 >= count, "\(name): only \(decoded[number]) of \(count) decoded")
            #expect(rejected[number] * 20 >= count, "\(name): only \(rejected[number]) of \(count) rejected")
        }
    }
}

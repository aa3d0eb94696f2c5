import AwareCore
import Foundation
import Testing

@testable import AwareWire

/// Session A recorded from hostap (Fixtures/hostap-session-A/README.md): every frame must
/// decode into the kind transcript.json names, with its addresses and PASN elements, and
/// re-serialize to the same octets.
@Suite struct FrameHostapSessionTests {
    private struct Transcript {
        let frames: [[String: Any]]

        init() throws {
            let data = try FrameTestSupport.fixture("hostap-session-A/transcript.json")
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            frames = try #require(root["frames"] as? [[String: Any]])
        }
    }

    private func records() throws -> [CaptureRecord] {
        let data = try FrameTestSupport.fixture("hostap-session-A/session.pcap")
        return try CaptureReader.read(bytes: Array(data))
    }

    @Test func pcapHolds37FramesOfLinkType105() throws {
        let data = Array(try FrameTestSupport.fixture("hostap-session-A/session.pcap"))
        let file = try PcapFile(bytes: data)
        #expect(file.linkType == .ieee80211)
        #expect(file.precision == .microseconds)
        #expect(file.byteOrder == .littleEndian)
        #expect(file.records.count == 37)
        #expect(file.records.allSatisfy { $0.linkType == .ieee80211 && $0.radiotap == nil })
        #expect(CaptureReader.format(of: data) == .pcap)
        // Frame 1's timestamp: ts_sec 0x6b023487, ts_usec 0x000f328d (file offsets 24-31).
        #expect(file.records[0].timestamp == 0x6B02_3487 * 1_000_000_000 + 0x000F_328D * 1_000)
        let transcript = try Transcript()
        for (record, row) in zip(file.records, transcript.frames) {
            #expect(record.frame.count == row["len"] as? Int)
        }
    }

    @Test func everyFrameDecodesIntoItsKind() throws {
        let transcript = try Transcript()
        let records = try records()
        #expect(records.count == transcript.frames.count)
        for (record, row) in zip(records, transcript.frames) {
            let number = row["no"] as? Int ?? 0
            let kind = try #require(row["kind"] as? String)
            let frame = try IEEE80211Frame(bytes: record.frame)
            let management = try #require(frame.managementFrame, "frame \(number)")
            #expect(management.header.address1.description == row["ra"] as? String, "frame \(number)")
            #expect(management.header.address2.description == row["ta"] as? String, "frame \(number)")
            #expect(management.header.address3.description == row["a3"] as? String, "frame \(number)")
            #expect(!management.header.frameControl.isProtected, "frame \(number)")
            switch management.body {
            case .serviceDiscovery(let sdf):
                #expect(kind.hasPrefix("SDF "), "frame \(number) is \(kind)")
                #expect(Int(sdf.category.rawValue) == row["category"] as? Int, "frame \(number)")
                #expect(!sdf.attributes.isEmpty)
            case .nanAction(let naf):
                #expect(kind == "NAF \(naf.subtype.name)", "frame \(number)")
                #expect(Int(naf.category.rawValue) == row["category"] as? Int, "frame \(number)")
            case .pasnAuthentication(let pasn):
                #expect(kind == "PASN Authentication frame \(pasn.transactionSequence)", "frame \(number)")
                #expect(row["category"] is NSNull || row["category"] == nil)
            default:
                Issue.record("frame \(number) (\(kind)) decoded as \(management.body.summary)")
            }
            #expect(frame.wireBytes == record.frame, "frame \(number) does not re-serialize")
        }
    }

    @Test func pasnElementsMatchTheTranscript() throws {
        let transcript = try Transcript()
        let records = try records()
        var checked = 0
        for (record, row) in zip(records, transcript.frames) {
            guard let expected = row["elements"] as? [[String: Any]] else { continue }
            let number = row["no"] as? Int ?? 0
            guard case .pasnAuthentication(let pasn) = try IEEE80211Frame(bytes: record.frame).managementFrame?.body
            else {
                Issue.record("frame \(number) is not PASN")
                continue
            }
            #expect(pasn.elements.count == expected.count, "frame \(number)")
            var offset = ManagementHeader.length + 6
            for (element, want) in zip(pasn.elements, expected) {
                let octets = element.wireBytes
                #expect(Int(element.id) == want["id"] as? Int, "frame \(number) element at \(offset)")
                #expect(Int(octets[1]) == want["len"] as? Int, "frame \(number) element at \(offset)")
                #expect(offset == want["offset"] as? Int, "frame \(number)")
                #expect(Array(record.frame[offset..<(offset + octets.count)]) == octets, "frame \(number)")
                if let text = want["hex"] as? String {
                    // The transcript gives whole elements, except ID-255 ones from the
                    // extension ID on.
                    let whole = HexString.encode(octets)
                    let fromExtension = HexString.encode(octets.dropFirst(2))
                    #expect(text == whole || text == fromExtension, "frame \(number) element \(want["name"] ?? "")")
                }
                checked += 1
                offset += octets.count
            }
            #expect(offset == record.frame.count, "frame \(number): elements do not fill the body")
        }
        #expect(checked == 5 + 7 + 4 + 4 + 6 + 3)
    }

    @Test func typedPASNValuesOfFrames14And15() throws {
        let records = try records()
        guard case .pasnAuthentication(let auth1) = try IEEE80211Frame(bytes: records[13].frame).managementFrame?.body,
            case .pasnAuthentication(let auth2) = try IEEE80211Frame(bytes: records[14].frame).managementFrame?.body
        else {
            Issue.record("frames 14 and 15 are not PASN")
            return
        }
        #expect(auth1.rsn?.pmkids == [])
        #expect(auth1.rsn?.akmSuites == [.akmSAE])
        #expect(auth1.wrappedData?.data.count == 104)
        #expect(auth1.wrappedData?.data.prefix(6) == [0x03, 0x00, 0x01, 0x00, 0x7E, 0x00])
        #expect(auth1.pasnParameters?.wrappedDataFormat == .sae)
        #expect(auth1.pasnParameters?.ephemeralKey?.publicKey.count == 33)
        #expect(auth1.mic == nil)
        #expect(auth2.rsn?.pmkids == [FrameTestSupport.hex("e72be19c5159b566195d9bea5d1a1e8b")])
        #expect(auth2.elements.contains(.supportedGroups(SupportedGroupsElement(groups: [19]))))
        #expect(auth2.mic?.mic.count == 16)
    }
}

/// Every input that parses must write back unchanged, and nothing may trap: mutations and
/// truncations of the session's octets either decode and round-trip or throw a WireError.
@Suite struct FrameMutationTests {
    @Test func mutatedFramesRoundTripOrThrow() throws {
        let data = try FrameTestSupport.fixture("hostap-session-A/session.pcap")
        let records = try CaptureReader.read(bytes: Array(data))
        var parsed = 0
        var rejected = 0
        for index in [0, 4, 13, 14, 15, 16, 21, 34, 35, 36] {
            let original = records[index].frame
            for position in original.indices {
                for change in [UInt8(0x00), 0xFF, original[position] ^ 0x01] {
                    var mutated = original
                    mutated[position] = change
                    do {
                        let frame = try IEEE80211Frame(bytes: mutated)
                        #expect(frame.wireBytes == mutated, "frame \(index + 1) octet \(position) = \(change)")
                        parsed += 1
                    } catch {
                        rejected += 1
                    }
                }
            }
            for length in 0..<original.count {
                _ = try? IEEE80211Frame(bytes: original.prefix(length))
            }
        }
        #expect(parsed > 0 && rejected > 0)
    }

    @Test func truncatedCaptureFilesThrow() throws {
        let data = Array(try FrameTestSupport.fixture("hostap-session-A/session.pcap"))
        let pcapng = PcapngFile(records: try CaptureReader.read(bytes: data)).bytes
        // pcap parses when cut after its header or a record (1 + 36 cuts short of the whole
        // file); pcapng after the SHB, the IDB or an EPB (2 + 36).
        for (file, expectedCuts) in [(data, 37), (pcapng, 38)] {
            var boundaries = 0
            for length in 0..<file.count {
                do {
                    _ = try CaptureReader.read(bytes: Array(file.prefix(length)))
                    boundaries += 1
                } catch {
                    #expect(error.offset <= length)
                }
            }
            #expect(boundaries == expectedCuts)
        }
    }
}

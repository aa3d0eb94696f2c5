import AwareAnalysis
import AwareCore
import AwareWire
import ConformanceKit
import Testing

/// The analyzer against captures written octet by octet (``HandBuiltCapture``): each rule must
/// find exactly the frame that breaks it, and nothing in the frames that do not.
@Suite struct AnalysisHandBuiltTests {
    static let drone = AnalysisProfile(
        serviceNames: ["_drone-service._udp"],
        vendorName: "Example Inc",
        modelName: "Example Model",
        pairingName: "My Drone",
        offersPairing: true
    )

    static let txt = HandBuiltCapture.sdea(txt: HandBuiltCapture.droneTXT)

    func report(_ file: [UInt8], profile: AnalysisProfile = drone) throws -> AnalysisReport {
        let (_, records) = try AnalysisInputError.records(of: file, path: "hand-built.pcap")
        return CaptureAnalyzer(profile: profile).analyze(records: records)
    }

    /// (rule, frame) of every finding, in report order.
    func found(_ report: AnalysisReport) -> [String] {
        report.findings.map { "\($0.ruleID)@\($0.frame.map(String.init) ?? "-")" }
    }

    @Test func aHealthyPublishHasNoFindings() throws {
        let result = try report(HandBuiltCapture.pcap([HandBuiltCapture.publish()]))
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(result.nanFrameCount == 1)
    }

    @Test func aTXTValueOf64OctetsIsFoundAnd63IsNot() throws {
        let long = "vendorName=" + String(repeating: "v", count: 64)
        let limit = "vendorName=" + String(repeating: "v", count: 63)
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.publish(txt: [limit, "modelName=Example Model", "pairingName=My Drone"]),
            HandBuiltCapture.publish(txt: [long, "modelName=Example Model", "pairingName=My Drone"]),
        ])
        let result = try report(file, profile: AnalysisProfile())
        #expect(found(result) == ["WA/CAP/TXT-01@2"])
        #expect(result.findings.first?.message.contains("64-octet value") == true)
    }

    @Test func aServiceIDThatIsNotTheNamesHashIsFound() throws {
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.publish(),
            HandBuiltCapture.publish(serviceID: [0x34, 0x25, 0xF1, 0x7B, 0xDA, 0x30]),
        ])
        let result = try report(file)
        #expect(found(result) == ["WA/CAP/SID-01@2"])
        #expect(result.findings.first?.message.contains("3425f17bda30") == true)
        // Without a name there is nothing to compare with.
        #expect(try report(file, profile: AnalysisProfile()).findings.isEmpty)
    }

    @Test func txtKeysMissingOrDifferentFromTheProfile() throws {
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.publish(txt: ["vendorName=Example Inc", "pairingName=My Drone"]),
            HandBuiltCapture.publish(txt: ["vendorName=EXAMPLE INC", "modelName=Example Model"]),
        ])
        let result = try report(file)
        #expect(
            found(result) == [
                "WA/CAP/TXT-02@1", "WA/CAP/TXT-03@1", "WA/CAP/TXT-02@2", "WA/CAP/TXT-03@2", "WA/CAP/TXT-03@2",
            ]
        )
        let pairingName = try #require(result.findings.first { $0.ruleID == "WA/CAP/TXT-02" && $0.frame == 2 })
        #expect(pairingName.severity == .warning)
        #expect(result.findings.first { $0.ruleID == "WA/CAP/TXT-02" && $0.frame == 1 }?.severity == .error)
    }

    @Test func multicastSDFsOutsideTheDiscoveryWindowAreFound() throws {
        // Beacon TSF 0x100000 µs = 2 x 524288: a window starts there. SDFs 5 ms and 529 ms later
        // are inside a window; 100 ms and 300 ms later are not.
        let start: UInt64 = 10_000_000
        let file = HandBuiltCapture.pcap([
            (start, HandBuiltCapture.beacon(tsf: 0x10_0000), nil),
            (start + 5_000, HandBuiltCapture.publish(a3: HandBuiltCapture.cluster), nil),
            (start + 100_000, HandBuiltCapture.publish(a3: HandBuiltCapture.cluster), nil),
            (start + 300_000, HandBuiltCapture.publish(a3: HandBuiltCapture.cluster), nil),
            (start + 524_288 + 5_000, HandBuiltCapture.publish(a3: HandBuiltCapture.cluster), nil),
            // Unsynchronized discovery (A3 = NAN Network ID) has no windows.
            (start + 200_000, HandBuiltCapture.publish(), nil),
        ])
        let result = try report(file)
        #expect(found(result) == ["WA/CAP/SDF-DW-01@3", "WA/CAP/SDF-DW-01@4"])
        let message = result.findings.first?.message ?? ""
        #expect(message.contains("was sent 97.6 TU after the start of a 2.4 GHz discovery window"), "\(message)")
    }

    @Test func withoutABeaconTheWindowCheckSaysItCannotPlaceTheFrames() throws {
        let inCluster = HandBuiltCapture.publish(a3: HandBuiltCapture.cluster)
        let result = try report(HandBuiltCapture.pcap([HandBuiltCapture.publish(), inCluster, inCluster]))
        #expect(found(result) == ["WA/CAP/SDF-DW-01@2"])
        #expect(result.findings.first?.severity == .info)
        #expect(result.findings.first?.message.contains("2 multicast SDF(s)") == true)
        // With a beacon of the cluster (TSF 0 at frame 1), a publish 1 ms later is in the window.
        let placed = try report(
            HandBuiltCapture.pcap([
                HandBuiltCapture.beacon(tsf: 0, from: HandBuiltCapture.accessory), inCluster,
            ])
        )
        #expect(placed.findings.isEmpty, "\(placed.findings)")
    }

    @Test func unprotectedUnicastAfterPairingIsFound() throws {
        let followUp = { (protected: Bool, category: UInt8) in
            HandBuiltCapture.sdf(
                to: HandBuiltCapture.phone,
                category: category,
                protected: protected,
                attributes: [HandBuiltCapture.sda(type: 2)]
            )
        }
        // The protected frame's body is ciphertext: a CCMP header and octets nobody can read.
        let ciphertext =
            HandBuiltCapture.header([0xD0, 0x40], to: HandBuiltCapture.phone, from: HandBuiltCapture.accessory)
            + [UInt8](repeating: 0x5A, count: 40)
        // 100 ms apart: well past the 16 TU in which a frame may have been queued before the keys.
        let frames =
            [followUp(false, 4)] + HandBuiltCapture.pairing + [followUp(false, 4), ciphertext, followUp(false, 9)]
        let file = HandBuiltCapture.pcap(
            frames.enumerated().map { (UInt64(1_000_000 + $0.offset * 100_000), $0.element, nil) }
        )
        let result = try report(file, profile: AnalysisProfile())
        #expect(found(result) == ["WA/CAP/PROT-01@5", "WA/CAP/PROT-01@7"])
        #expect(result.findings.allSatisfy { $0.severity == .error })
        #expect(result.pairingCount == 1)
        #expect(result.findings.first?.message.contains("paired in frame 4") == true)
        // 1 and 3 ms after PASN frame 3 the frames may have been queued before the keys: warnings.
        let soon = try report(HandBuiltCapture.pcap(frames), profile: AnalysisProfile())
        #expect(soon.findings.map(\.severity) == [.warning, .warning])
    }

    @Test func aNewNIRAEndsThePairingsKeys() throws {
        // The accessory reboots between frames 5 and 6: its NIRA nonce changes (3.3), and its
        // unprotected solicited publish to the phone afterwards is not a finding.
        let reply = { (nira: [UInt8]) in
            HandBuiltCapture.sdf(
                to: HandBuiltCapture.phone,
                attributes: [HandBuiltCapture.sda(), HandBuiltCapture.attribute(0x2B, nira)]
            )
        }
        let before = [0] + [UInt8](repeating: 0x11, count: 16)
        let after = [0] + [UInt8](repeating: 0x33, count: 16)
        let multicast = { (nira: [UInt8]) in
            HandBuiltCapture.sdf(attributes: [HandBuiltCapture.sda(), HandBuiltCapture.attribute(0x2B, nira)])
        }
        let frames =
            [multicast(before)] + HandBuiltCapture.pairing + [
                multicast(before), reply(before), multicast(after), reply(after),
            ]
        let file = HandBuiltCapture.pcap(
            frames.enumerated().map { (UInt64(1_000_000 + $0.offset * 100_000), $0.element, nil) }
        )
        #expect(found(try report(file, profile: AnalysisProfile())) == ["WA/CAP/PROT-01@6"])
    }

    @Test func unprotectedDataBetweenNDIsThatExchangeProtectedDataIsFound() throws {
        let accessoryNDI: [UInt8] = [0x02, 0xA0, 0x00, 0x00, 0x01, 0x01]
        let phoneNDI: [UInt8] = [0x02, 0xB0, 0x00, 0x00, 0x01, 0x02]
        let other: [UInt8] = [0x02, 0xC0, 0x00, 0x00, 0x01, 0x03]
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.qosData(from: phoneNDI, to: accessoryNDI, protected: true, sequence: 1),
            HandBuiltCapture.qosData(from: accessoryNDI, to: phoneNDI, protected: false, sequence: 1),
            HandBuiltCapture.qosData(from: accessoryNDI, to: phoneNDI, protected: true, sequence: 2),
            // An open data path with someone else is not judged.
            HandBuiltCapture.qosData(from: accessoryNDI, to: other, protected: false, sequence: 3),
        ])
        let result = try report(file, profile: AnalysisProfile())
        #expect(found(result) == ["WA/CAP/PROT-03@2"])
        // --device keeps findings on frames the device sent: the NDI counts only when given.
        let scoped = try report(file, profile: AnalysisProfile(devices: [MACAddress(HandBuiltCapture.accessory)!]))
        #expect(scoped.findings.isEmpty)
        let withNDI = try report(
            file,
            profile: AnalysisProfile(devices: [MACAddress(HandBuiltCapture.accessory)!, MACAddress(accessoryNDI)!])
        )
        #expect(found(withNDI) == ["WA/CAP/PROT-03@2"])
    }

    @Test func dataInBurstsOneDiscoveryWindowApartIsFoundAndASteadyStreamIsNot() throws {
        let accessoryNDI: [UInt8] = [0x02, 0xA0, 0x00, 0x00, 0x01, 0x01]
        let phoneNDI: [UInt8] = [0x02, 0xB0, 0x00, 0x00, 0x01, 0x02]
        // 50 packet/s for 3 s: steady (every 20 ms), or 26 packets 0.2 ms apart every 524.288 ms.
        var steady: [(UInt64, [UInt8], Int?)] = []
        var bursts: [(UInt64, [UInt8], Int?)] = []
        for index in 0..<150 {
            let frame = HandBuiltCapture.qosData(from: accessoryNDI, to: phoneNDI, protected: true, sequence: index)
            steady.append((1_000_000 + UInt64(index) * 20_000, frame, nil))
            bursts.append((1_000_000 + UInt64(index / 26) * 524_288 + UInt64(index % 26) * 200, frame, nil))
        }
        #expect(try report(HandBuiltCapture.pcap(steady)).findings.isEmpty)
        let result = try report(HandBuiltCapture.pcap(bursts))
        #expect(found(result) == ["WA/CAP/DATA-DW-01@1"])
        #expect(result.findings.first?.message.contains("bursts start at frames 1, 27, 53, 79, 105, 131") == true)
    }

    @Test func category9InTheClearWithoutAPairingIsFound() throws {
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.sdf(to: HandBuiltCapture.phone, category: 9, attributes: [HandBuiltCapture.sda(type: 2)])
        ])
        #expect(found(try report(file, profile: AnalysisProfile())) == ["WA/CAP/PROT-02@1"])
    }

    @Test func aCachingAccessoryWithoutNIRAAfterPairingIsFound() throws {
        let file = HandBuiltCapture.pcap(
            [HandBuiltCapture.publish()] + HandBuiltCapture.pairing + [
                HandBuiltCapture.publish(nira: true), HandBuiltCapture.publish(),
            ]
        )
        #expect(found(try report(file)) == ["WA/CAP/NIRA-01@6"])
    }

    @Test func pairingAdvertisementMustBeConsistent() throws {
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.sdf(attributes: [HandBuiltCapture.sda(), Self.txt, HandBuiltCapture.dcea()]),
            HandBuiltCapture.sdf(attributes: [HandBuiltCapture.sda(), HandBuiltCapture.npba(methods: 0x0002)]),
            HandBuiltCapture.sdf(attributes: [HandBuiltCapture.sda()]),
            HandBuiltCapture.sdf(attributes: [
                HandBuiltCapture.sda(), Self.txt, HandBuiltCapture.npba(methods: 0), HandBuiltCapture.dcea(),
            ]),
        ])
        let result = try report(file, profile: AnalysisProfile(offersPairing: true))
        #expect(
            found(result) == ["WA/CAP/NPBA-01@1", "WA/CAP/NPBA-01@2", "WA/CAP/NPBA-01@3", "WA/CAP/NPBA-01@4"]
        )
    }

    @Test func bootstrappingMustAnswerWithTheComplement() throws {
        let request = { (token: UInt8, methods: Int) in
            HandBuiltCapture.sdf(
                to: HandBuiltCapture.accessory,
                from: HandBuiltCapture.phone,
                attributes: [
                    HandBuiltCapture.sda(type: 2), HandBuiltCapture.npba(token: token, type: 1, methods: methods),
                ]
            )
        }
        let response = { (token: UInt8, methods: Int) in
            HandBuiltCapture.sdf(
                to: HandBuiltCapture.phone,
                attributes: [
                    HandBuiltCapture.sda(type: 2), HandBuiltCapture.npba(token: token, type: 2, methods: methods),
                ]
            )
        }
        let file = HandBuiltCapture.pcap([
            request(1, 0x0020), response(1, 0x0002),  // PIN keypad -> PIN display: right
            request(2, 0x0020), response(2, 0x0020),  // answered with the same method: wrong
            request(3, 0x0022),  // two methods in one request: wrong
        ])
        #expect(found(try report(file, profile: AnalysisProfile())) == ["WA/CAP/NPBA-02@4", "WA/CAP/NPBA-02@5"])
    }

    @Test func anSDEAWithoutItsSDAIsFound() throws {
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.sdf(attributes: [
                HandBuiltCapture.sda(instance: 1), HandBuiltCapture.sdea(instance: 2, txt: ["a=b"]),
            ])
        ])
        #expect(found(try report(file, profile: AnalysisProfile())) == ["WA/CAP/ATTR-01@1"])
    }

    @Test func aRetransmissionIsJudgedOnce() throws {
        let wrong: [UInt8] = [1, 2, 3, 4, 5, 6]
        let file = HandBuiltCapture.pcap([
            HandBuiltCapture.publish(serviceID: wrong), HandBuiltCapture.publish(serviceID: wrong, retry: true),
        ])
        #expect(found(try report(file)) == ["WA/CAP/SID-01@1"])
    }

    @Test func aFrameCutShortBySnapLengthIsSkippedAndNoted() throws {
        let whole = HandBuiltCapture.publish(serviceID: [1, 2, 3, 4, 5, 6])
        let file = HandBuiltCapture.pcap([(1_000_000, Array(whole.prefix(40)), whole.count)])
        let result = try report(file)
        #expect(found(result) == ["WA/CAP/FRAME-01@1"])
        #expect(result.findings.first?.severity == .info)
        #expect(!result.hasErrors)
    }

    @Test func aMalformedAttributeIsAnErrorThatNamesTheOffset() throws {
        // The SDA says 9 octets but the frame ends after 4 of them.
        let frame = HandBuiltCapture.sdf(attributes: [[0x03, 0x09, 0x00, 0x34, 0x25, 0xF1, 0x7B]])
        let result = try report(HandBuiltCapture.pcap([frame]))
        #expect(found(result) == ["WA/CAP/FRAME-03@1"])
        #expect(result.findings.first?.message.contains("offset") == true, "\(result.findings)")
    }

    @Test func fcsIsCheckedWhenTheCaptureKeepsIt() throws {
        let frame = HandBuiltCapture.publish()
        let good = HandBuiltCapture.radiotapWithFCS(frame, fcs: HandBuiltCapture.crc32(frame))
        let bad = HandBuiltCapture.radiotapWithFCS(frame, fcs: HandBuiltCapture.crc32(frame) ^ 1)
        let file = HandBuiltCapture.pcap(linkType: 127, [(1_000_000, good, nil), (1_001_000, bad, nil)])
        let result = try report(file)
        #expect(found(result) == ["WA/CAP/FRAME-02@2"])
        // Link type 105 with the FCS left on: recognised by its CRC, not reported as malformed.
        let withFCS = frame + HandBuiltCapture.le32(HandBuiltCapture.crc32(frame))
        #expect(try report(HandBuiltCapture.pcap([withFCS])).findings.isEmpty)
    }
}

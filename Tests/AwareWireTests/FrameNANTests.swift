import AwareCore
import Testing

@testable import AwareWire

@Suite struct FrameNANTests {
    private let hex = FrameTestSupport.hex

    @Test func goldenSDFFromPlatformNotes() throws {
        let bytes = FrameTestSupport.goldenSDF
        #expect(bytes.count == 63)
        let frame = try IEEE80211Frame(bytes: bytes)
        let management = try #require(frame.managementFrame)
        #expect(management.header.frameControl.rawValue == 0x00D0)
        #expect(management.header.address1 == MACAddress(0x51, 0x6F, 0x9A, 0x01, 0x00, 0x00))
        #expect(management.header.address2 == MACAddress(0x02, 0x00, 0x00, 0x00, 0x01, 0x00))
        #expect(management.header.address3 == MACAddress(0x50, 0x6F, 0x9A, 0x01, 0xAB, 0xCD))
        #expect(management.header.sequenceControl.sequenceNumber == 1)
        #expect(management.header.sequenceControl.fragmentNumber == 0)
        guard case .serviceDiscovery(let sdf) = management.body else {
            Issue.record("not an SDF: \(management.body)")
            return
        }
        #expect(sdf.category == .publicAction)
        #expect(sdf.attributes.map(\.id) == [.serviceDescriptor, .serviceDescriptorExtension])
        // The SDA body as the platform notes lay it out: service ID, instance 1, requestor 0,
        // control 0x10, service info length 5, "hello".
        #expect(sdf.attributes[0].wireBytes == hex("030f00 8512ccdabe18 01 00 10 05 68656c6c6f"))
        #expect(sdf.attributes[1].wireBytes == hex("0e0c00 01 0000 0700 506f9a 02 010203"))
        #expect(frame.wireBytes == bytes)
    }

    @Test func sdfBuildsTheSameOctets() {
        let header = ManagementHeader(
            frameControl: .management(.action),
            address1: .nanNetworkID,
            address2: MACAddress(2, 0, 0, 0, 1, 0),
            address3: MACAddress(0x50, 0x6F, 0x9A, 1, 0xAB, 0xCD),
            sequenceControl: SequenceControl(sequenceNumber: 1)
        )
        let sdf = ServiceDiscoveryFrame(
            attributes: [
                .unknown(id: .serviceDescriptor, body: hex("8512ccdabe18 01 00 10 05 68656c6c6f")),
                .unknown(id: .serviceDescriptorExtension, body: hex("01 0000 0700 506f9a 02 010203")),
            ]
        )
        let frame = IEEE80211Frame.management(ManagementFrame(header: header, body: .serviceDiscovery(sdf)))
        #expect(frame.wireBytes == FrameTestSupport.goldenSDF)
    }

    @Test func nanActionFrameGoldenAndNamedSubtype() throws {
        // Category 9, 09, 50 6f 9a, 18, subtype 5 (Data Path Request), one attribute 0x2e (Transmit Power Envelope, kept raw) len 1.
        let bytes = hex("d000 0000 02a000000001 02b000000002 506f9a011234 0000 09 09 506f9a 18 05 2e0100aa")
        let frame = try IEEE80211Frame(bytes: bytes)
        guard case .management(let management) = frame, case .nanAction(let naf) = management.body else {
            Issue.record("not a NAF: \(frame)")
            return
        }
        #expect(naf.category == .protectedDualOfPublicAction)
        #expect(naf.subtype == .dataPathRequest)
        #expect(naf.subtype.name == "Data Path Request")
        #expect(naf.attributes == [.unknown(id: .transmitPowerEnvelope, body: [0xAA])])
        #expect(frame.wireBytes == bytes)
        #expect(management.body.summary == "NAF Data Path Request")
    }

    @Test func reservedNAFSubtypeIsKept() throws {
        let bytes = hex("d000 0000 02a000000001 02b000000002 506f9a011234 0000 04 09 506f9a 18 2a")
        let frame = try IEEE80211Frame(bytes: bytes)
        guard case .nanAction(let naf) = frame.managementFrame?.body else {
            Issue.record("not a NAF")
            return
        }
        #expect(naf.subtype == .reserved(0x2A))
        #expect(naf.attributes.isEmpty)
        #expect(frame.wireBytes == bytes)
        for value in UInt8.min...UInt8.max { #expect(NAFSubtype(rawValue: value).rawValue == value) }
    }

    @Test func otherActionsAndManagementFramesAreNotErrors() throws {
        let header = "0000 ffffffffffff 020000000001 020000000001 0000"
        let cases: [(String, ManagementFrameBody)] = [
            // Spectrum management action (category 0).
            ("d000" + header + "00 04 aabb", .otherAction(category: 0, body: hex("04aabb"))),
            // Public action, vendor specific, other WFA OUI type (P2P = 0x09).
            ("d000" + header + "04 09 506f9a 09 01", .otherAction(category: 4, body: hex("09506f9a0901"))),
            // Public action, vendor specific with an unknown category 127 (vendor).
            ("d000" + header + "7f 001018 01", .otherAction(category: 127, body: hex("00101801"))),
            // Probe request with an SSID element.
            ("4000" + header + "0004 74657374", .otherManagement(hex("000474657374"))),
            // Open-system authentication (algorithm 0).
            ("b000" + header + "0000 0100 0000", .otherManagement(hex("000001000000"))),
            // AP beacon: no NAN element.
            (
                "8000" + header + "0001020304050607 6400 1104 0003 616263 dd05 0050f20201",
                .otherManagement(hex("0001020304050607 6400 1104 0003 616263 dd05 0050f20201"))
            ),
            // Action with an empty body.
            ("d000" + header, .otherManagement([])),
        ]
        for (text, expected) in cases {
            let bytes = hex(text)
            let frame = try IEEE80211Frame(bytes: bytes)
            #expect(frame.managementFrame?.body == expected)
            #expect(frame.managementFrame?.body.isNAN == false)
            #expect(frame.wireBytes == bytes)
        }
    }

    @Test func controlAndDataFramesAreNotManagement() throws {
        // ACK (d4 00) and a QoS Null data frame (c8 01).
        for text in ["d400 0000 020000000001", "c801 3a01 020000000001 020000000002 020000000001 0000 0000"] {
            let bytes = hex(text)
            let frame = try IEEE80211Frame(bytes: bytes)
            guard case .notManagement(let control, let rest) = frame else {
                Issue.record("decoded as management: \(frame)")
                continue
            }
            #expect(control.type != .management)
            #expect(rest == Array(bytes.dropFirst(2)))
            #expect(frame.wireBytes == bytes)
        }
    }

    @Test func protectedFrameKeepsCiphertext() throws {
        // Protected bit set: the "attributes" would be garbage, so the body is not parsed.
        let bytes = hex("d040 0000 02a000000001 02b000000002 506f9a011234 0000 0100002000000000 09ff ffff")
        let frame = try IEEE80211Frame(bytes: bytes)
        #expect(frame.managementFrame?.body == .protected(hex("0100002000000000 09ff ffff")))
        #expect(frame.managementFrame?.header.frameControl.isProtected == true)
        #expect(frame.wireBytes == bytes)
    }

    @Test func sdfWithLyingAttributeLengthIsAnError() {
        // The SDA claims 15 octets but only 2 follow; offset 33 is where the body would start.
        let bytes = hex("d000 0000 516f9a010000 020000000100 506f9a01abcd 1000 0409506f9a13 030f00 8512")
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 15, actual: 2),
                structure: "Service Discovery Frame",
                field: "Length",
                offset: 33
            )
        ) {
            _ = try IEEE80211Frame(bytes: bytes)
        }
    }

    @Test func nafWithoutSubtypeIsTruncated() {
        let bytes = hex("d000 0000 02a000000001 02b000000002 506f9a011234 0000 04 09 506f9a 18")
        #expect(
            throws: WireError(
                .truncated(need: 1, have: 0),
                structure: "NAN Action Frame",
                field: "OUI Subtype",
                offset: 30
            )
        ) {
            _ = try IEEE80211Frame(bytes: bytes)
        }
    }

    @Test func sdfDescribesItself() throws {
        let frame = try IEEE80211Frame(bytes: FrameTestSupport.goldenSDF)
        let fields = frame.decodedFields
        #expect(fields.map(\.key) == ["header", "frameKind", "isNAN", "body"])
        #expect(fields[1].value == .text("SDF Publish"))
        #expect(fields[2].value == .flag(true))
        guard case .fields(let body) = fields[3].value else {
            Issue.record("body is not a structure")
            return
        }
        #expect(body.map(\.key) == ["category", "publicAction", "oui", "ouiType", "attributes"])
        #expect(body[0].value == .named(4, "Public"))
    }
}

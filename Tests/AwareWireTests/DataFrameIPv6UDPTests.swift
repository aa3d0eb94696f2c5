import AwareCore
import Testing

@testable import AwareWire

@Suite struct DataFrameIPv6UDPTests {
    private var golden: IPv6UDPPacket {
        IPv6UDPPacket(
            trafficClass: DSCP.expeditedForwarding.trafficClass,
            source: IPv6Address.linkLocal(of: DataFrameGolden.ownNDI),
            destination: IPv6Address.linkLocal(of: DataFrameGolden.peerNDI),
            sourcePort: 5000,
            destinationPort: 7000,
            payload: Array("hello".utf8)
        )
    }

    @Test func llcSNAPGoldenBytes() throws {
        #expect(LLCSNAPHeader.ipv6.wireBytes == DataFrameGolden.llcSNAP)
        let parsed = try LLCSNAPHeader(wireBytes: DataFrameGolden.llcSNAP, structure: "LLC/SNAP header")
        #expect(parsed == .ipv6 && parsed.etherType == 0x86DD)
        let tunnel = FrameTestSupport.hex("aaaa03 0000f8 80f3")
        #expect(try LLCSNAPHeader(wireBytes: tunnel, structure: "LLC/SNAP header").wireBytes == tunnel)
    }

    @Test func llcSNAPRefusesOtherSAPsAndControls() {
        #expect(
            throws: WireError(
                .invalidValue("SSAP 0x42 is not SNAP (0xaa)"),
                structure: "LLC/SNAP header",
                field: "SSAP",
                offset: 1
            )
        ) {
            try LLCSNAPHeader(wireBytes: FrameTestSupport.hex("aa4203 000000 86dd"), structure: "LLC/SNAP header")
        }
        #expect(
            throws: WireError(
                .invalidValue("Control 0x13 is not Unnumbered Information (0x03)"),
                structure: "LLC/SNAP header",
                field: "Control",
                offset: 2
            )
        ) {
            try LLCSNAPHeader(wireBytes: FrameTestSupport.hex("aaaa13 000000 86dd"), structure: "LLC/SNAP header")
        }
        #expect(
            throws: WireError(.truncated(need: 2, have: 1), structure: "LLC/SNAP header", field: "EtherType", offset: 6)
        ) {
            try LLCSNAPHeader(wireBytes: FrameTestSupport.hex("aaaa03 000000 86"), structure: "LLC/SNAP header")
        }
    }

    @Test func modifiedEUI64AndLinkLocal() throws {
        // RFC 4291 Appendix A: 02:a0:00 | ff:fe | 00:00:01, U/L bit flipped: 02 → 00.
        #expect(
            IPv6Address.interfaceIdentifier(from: DataFrameGolden.ownNDI) == FrameTestSupport.hex("00a000fffe000001")
        )
        // A universally administered address gets the bit set: 00:11:22:33:44:55 → 02 11 22 ff fe 33 44 55.
        let universal = MACAddress(0x00, 0x11, 0x22, 0x33, 0x44, 0x55)
        #expect(IPv6Address.interfaceIdentifier(from: universal) == FrameTestSupport.hex("021122fffe334455"))
        let address = try #require(
            IPv6Address.linkLocal(interfaceIdentifier: FrameTestSupport.hex("00a000fffe000001"))
        )
        #expect(address.octets == FrameTestSupport.hex("fe80000000000000 00a000fffe000001"))
        #expect(address == IPv6Address.linkLocal(of: DataFrameGolden.ownNDI))
        #expect(address.isLinkLocal)
        #expect(IPv6Address.linkLocal(interfaceIdentifier: [1, 2, 3]) == nil)
    }

    @Test func textFormFollowsRFC5952() throws {
        #expect(IPv6Address.linkLocal(of: DataFrameGolden.ownNDI).description == "fe80::a0:ff:fe00:1")
        let allZero = try #require(IPv6Address([UInt8](repeating: 0, count: 16)))
        #expect(allZero.description == "::")
        // One zero group is not shortened; of two equal runs the first is.
        let a = try #require(IPv6Address(FrameTestSupport.hex("20010db8 0000 0001 0001 0001 0001 0001")))
        #expect(a.description == "2001:db8:0:1:1:1:1:1")
        let b = try #require(IPv6Address(FrameTestSupport.hex("20010000 0000 0001 0000 0000 0000 0001")))
        #expect(b.description == "2001:0:0:1::1")
        let c = try #require(IPv6Address(FrameTestSupport.hex("20010db8 0000 0000 0001 0000 0000 0001")))
        #expect(c.description == "2001:db8::1:0:0:1")
    }

    @Test func dscpFollowsRFC8325() {
        #expect([6, 7, 4, 5, 0, 3, 1, 2].map { DSCP(userPriority: $0).rawValue } == [46, 46, 34, 34, 0, 0, 8, 8])
        #expect(DSCP.expeditedForwarding.trafficClass == 0xB8)
        #expect(DSCP.af41.trafficClass == 0x88)
        #expect(DSCP.cs1.trafficClass == 0x20)
    }

    @Test func goldenPacketBytes() {
        #expect(golden.checksum == 0x90CD)
        #expect(golden.wireBytes == DataFrameGolden.ipv6UDP)
        #expect(golden.hopLimit == 255)
    }

    @Test func goldenPacketParses() throws {
        let packet = try IPv6UDPPacket(wireBytes: DataFrameGolden.ipv6UDP, structure: "IPv6 UDP packet")
        #expect(packet == golden)
        #expect(packet.dscp == .expeditedForwarding && packet.ecn == 0)
        #expect(packet.source.description == "fe80::a0:ff:fe00:1")
        #expect(packet.destinationPort == 7000 && packet.payload == Array("hello".utf8))
        #expect(packet.decodedFields.map(\.key).contains("udp"))
    }

    @Test func roundTripWithFlowLabelAndEvenPayload() throws {
        var packet = golden
        packet.flowLabel = 0xABCDE
        packet.trafficClass = 0x8B
        packet.payload = Array(0..<200)
        let bytes = packet.wireBytes
        #expect(Array(bytes[0..<4]) == [0x68, 0xBA, 0xBC, 0xDE])
        #expect(try IPv6UDPPacket(wireBytes: bytes, structure: "IPv6 UDP packet") == packet)
    }

    @Test func aFlippedPayloadBitFailsTheChecksum() {
        // 'o' (6f) → 6e: the padded last word 6f00 → 6e00 lowers the sum by 0x100, so the
        // checksum the content calls for rises by 0x100.
        var bytes = DataFrameGolden.ipv6UDP
        bytes[bytes.count - 1] ^= 0x01
        #expect(
            throws: WireError(
                .invalidValue("checksum 0x90cd does not match 0x91cd"),
                structure: "UDP datagram",
                field: "Checksum",
                offset: 46
            )
        ) {
            try IPv6UDPPacket(wireBytes: bytes, structure: "IPv6 UDP packet")
        }
    }

    @Test func aZeroChecksumIsRefused() {
        var bytes = DataFrameGolden.ipv6UDP
        bytes[46] = 0
        bytes[47] = 0
        #expect(
            throws: WireError(
                .invalidValue("checksum 0 (none) is not allowed over IPv6 (RFC 8200 8.1)"),
                structure: "UDP datagram",
                field: "Checksum",
                offset: 46
            )
        ) {
            try IPv6UDPPacket(wireBytes: bytes, structure: "IPv6 UDP packet")
        }
    }

    @Test func lengthsThatDisagreeAreRefused() {
        var longer = DataFrameGolden.ipv6UDP
        longer[5] = 0x0E
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 14, actual: 13),
                structure: "IPv6 UDP packet",
                field: "Payload Length",
                offset: 4
            )
        ) {
            try IPv6UDPPacket(wireBytes: longer, structure: "IPv6 UDP packet")
        }
        var udpLength = DataFrameGolden.ipv6UDP
        udpLength[45] = 0x0C
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 12, actual: 13),
                structure: "UDP datagram",
                field: "Length",
                offset: 44
            )
        ) {
            try IPv6UDPPacket(wireBytes: udpLength, structure: "IPv6 UDP packet")
        }
    }

    @Test func otherVersionsAndNextHeadersAreRefused() {
        var version4 = DataFrameGolden.ipv6UDP
        version4[0] = 0x4B
        #expect(
            throws: WireError(
                .invalidValue("Version 4 is not 6"),
                structure: "IPv6 UDP packet",
                field: "Version",
                offset: 0
            )
        ) {
            try IPv6UDPPacket(wireBytes: version4, structure: "IPv6 UDP packet")
        }
        var tcp = DataFrameGolden.ipv6UDP
        tcp[6] = 6
        #expect(
            throws: WireError(
                .invalidValue("Next Header 6 is not UDP (17); extension headers are not supported"),
                structure: "IPv6 UDP packet",
                field: "Next Header",
                offset: 6
            )
        ) {
            try IPv6UDPPacket(wireBytes: tcp, structure: "IPv6 UDP packet")
        }
        #expect(
            throws: WireError(
                .truncated(need: 16, have: 8),
                structure: "IPv6 UDP packet",
                field: "IPv6 Address",
                offset: 24
            )
        ) {
            try IPv6UDPPacket(wireBytes: DataFrameGolden.ipv6UDP.prefix(32), structure: "IPv6 UDP packet")
        }
    }
}

import AwareCore
import Testing

@testable import AwareWire

private func bytes(_ hex: String) -> [UInt8] { HexString.decode(hex)! }

@Suite struct MasterIndicationDiscoveryAttributeTests {
    @Test func golden() throws {
        // 2.3: Master Preference 0x80 | Random Factor 0x3c
        let wire = bytes("00 0200 80 3c")
        let attribute = MasterIndicationAttribute(masterPreference: 0x80, randomFactor: 0x3C)
        #expect(attribute.attributeBytes == wire)
        #expect(try MasterIndicationAttribute(attributeBytes: wire) == attribute)
    }

    @Test func lengthMustBeTwo() {
        #expect(
            throws: WireError(
                .truncated(need: 1, have: 0),
                structure: "Master Indication attribute",
                field: "Random Factor",
                offset: 4
            )
        ) {
            _ = try MasterIndicationAttribute(attributeBytes: bytes("00 0100 80"))
        }
        #expect(throws: WireError(.trailingOctets(count: 1), structure: "Master Indication attribute", offset: 5)) {
            _ = try MasterIndicationAttribute(attributeBytes: bytes("00 0300 80 3c 00"))
        }
    }
}

@Suite struct ClusterDiscoveryAttributeTests {
    private let nmi = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)

    @Test func anchorMasterRankByteOrder() throws {
        // 1.4: AMR octets = MAC[0..5] | Random Factor | Master Preference; hop count 0; AMBTT 0x12345678 LE.
        let wire = bytes("01 0d00 02a000000001 3c 80 00 78563412")
        let rank = ClusterAttribute.masterRank(masterPreference: 0x80, randomFactor: 0x3C, address: nmi)
        #expect(rank == 0x803C_0100_0000_A002)
        let cluster = ClusterAttribute(
            anchorMasterRank: rank,
            hopCountToAnchorMaster: 0,
            anchorMasterBeaconTransmissionTime: 0x1234_5678
        )
        #expect(cluster.attributeBytes == wire)
        let parsed = try ClusterAttribute(attributeBytes: wire)
        #expect(parsed == cluster)
        #expect(parsed.anchorMasterPreference == 0x80)
        #expect(parsed.anchorMasterRandomFactor == 0x3C)
        #expect(parsed.anchorMasterAddress == nmi)
        #expect(parsed.anchorMasterBeaconTransmissionTime == 0x1234_5678)
    }

    @Test func truncatedAMBTT() {
        #expect(
            throws: WireError(
                .truncated(need: 4, have: 3),
                structure: "Cluster attribute",
                field: "AM Beacon Transmission Time",
                offset: 12
            )
        ) {
            _ = try ClusterAttribute(attributeBytes: bytes("01 0c00 02a000000001 3c 80 00 785634"))
        }
    }

    @Test func describesRankParts() {
        let cluster = ClusterAttribute(
            anchorMasterRank: 0x803C_0100_0000_A002,
            hopCountToAnchorMaster: 2,
            anchorMasterBeaconTransmissionTime: 9
        )
        let fields = Dictionary(uniqueKeysWithValues: cluster.decodedFields.map { ($0.key, $0.value) })
        #expect(fields["anchorMasterAddress"] == .address(nmi))
        #expect(fields["anchorMasterPreference"] == .unsigned(0x80))
        #expect(fields["hopCountToAnchorMaster"] == .unsigned(2))
    }
}

@Suite struct ServiceIDListDiscoveryAttributeTests {
    private let drone = ServiceID(hex: "3425f17bda31")!
    private let matter = ServiceID(hex: "aba9cf8e4d3a")!

    @Test func goldenAndRoundTrip() throws {
        let wire = bytes("02 0c00 3425f17bda31 aba9cf8e4d3a")
        let list = ServiceIDListAttribute(serviceIDs: [drone, matter])
        #expect(list.attributeBytes == wire)
        #expect(try ServiceIDListAttribute(attributeBytes: wire) == list)
        #expect(try ServiceIDListAttribute(attributeBytes: bytes("02 0000")).serviceIDs.isEmpty)
    }

    @Test func subscribeListGolden() throws {
        let wire = bytes("28 0600 3425f17bda31")
        let list = SubscribeServiceIDListAttribute(serviceIDs: [drone])
        #expect(list.attributeBytes == wire)
        #expect(try SubscribeServiceIDListAttribute(attributeBytes: wire) == list)
    }

    @Test func lengthNotAMultipleOfSix() {
        #expect(
            throws: WireError(
                .invalidValue("a list of 7 octets is not a multiple of 6"),
                structure: "Service ID List attribute",
                field: "Service ID",
                offset: 3
            )
        ) {
            _ = try ServiceIDListAttribute(attributeBytes: bytes("02 0700 3425f17bda31 aa"))
        }
        #expect(
            throws: WireError(
                .invalidValue("a list of 5 octets is not a multiple of 6"),
                structure: "Subscribe Service ID List attribute",
                field: "Service ID",
                offset: 3
            )
        ) {
            _ = try SubscribeServiceIDListAttribute(attributeBytes: bytes("28 0500 3425f17bda"))
        }
    }
}

@Suite struct VendorSpecificDiscoveryAttributeTests {
    @Test func golden() throws {
        let wire = bytes("dd 0500 506f9a 0102")
        let attribute = VendorSpecificAttribute(oui: [0x50, 0x6F, 0x9A], body: [0x01, 0x02])
        #expect(attribute.attributeBytes == wire)
        #expect(try VendorSpecificAttribute(attributeBytes: wire) == attribute)
        #expect(try VendorSpecificAttribute(attributeBytes: bytes("dd 0300 001122")).body.isEmpty)
    }

    @Test func truncatedOUI() {
        #expect(
            throws: WireError(
                .truncated(need: 3, have: 2),
                structure: "Vendor Specific attribute",
                field: "OUI",
                offset: 3
            )
        ) {
            _ = try VendorSpecificAttribute(attributeBytes: bytes("dd 0200 0011"))
        }
    }
}

import AwareCore
import Testing

@testable import AwareWire

@Suite struct FrameHeaderTests {
    private let hex = FrameTestSupport.hex

    @Test func frameControlSubfields() throws {
        // d0 00: type 0 (management), subtype 13 (action), no flags.
        let action = try FrameControl(wireBytes: hex("d000"), structure: "t")
        #expect(action.type == .management)
        #expect(action.managementSubtype == .action)
        #expect(!action.isProtected)
        // b0 ff: authentication with every flag bit (b8-b15) set.
        let flags = try FrameControl(wireBytes: hex("b0ff"), structure: "t")
        #expect(flags.managementSubtype == .authentication)
        #expect(flags.toDS && flags.fromDS && flags.moreFragments && flags.retry)
        #expect(flags.powerManagement && flags.moreData && flags.isProtected && flags.htcOrder)
        let data = try FrameControl(wireBytes: hex("8841"), structure: "t")
        #expect(data.type == .data)
        #expect(data.subtype == 8)
        #expect(data.toDS && !data.fromDS && data.isProtected)
        #expect(FrameControl.management(.beacon).wireBytes == hex("8000"))
        #expect(FrameControl.management(.action, protected: true).wireBytes == hex("d040"))
    }

    @Test func sequenceControlSplitsFragmentAndSequence() throws {
        // 0x1234 LE = 34 12: fragment 4, sequence 0x123.
        let control = try SequenceControl(wireBytes: hex("3412"), structure: "t")
        #expect(control.fragmentNumber == 4)
        #expect(control.sequenceNumber == 0x123)
        #expect(SequenceControl(sequenceNumber: 1).wireBytes == hex("1000"))
        #expect(SequenceControl(sequenceNumber: 0xFFF, fragmentNumber: 0xF).wireBytes == hex("ffff"))
    }

    @Test func managementHeaderGoldenAndRoundTrip() throws {
        let header = ManagementHeader(
            frameControl: .management(.authentication),
            duration: 0x013A,
            address1: MACAddress(0x02, 0xA0, 0, 0, 0, 1),
            address2: MACAddress(0x02, 0xB0, 0, 0, 0, 2),
            address3: MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34),
            sequenceControl: SequenceControl(sequenceNumber: 2)
        )
        let expected = hex("b000 3a01 02a000000001 02b000000002 506f9a011234 2000")
        #expect(header.wireBytes == expected)
        #expect(expected.count == ManagementHeader.length)
        #expect(try ManagementHeader(wireBytes: expected, structure: "t") == header)
    }

    @Test func htControlFollowsWhenOrderBitIsSet() throws {
        let bytes = hex("d080 0000 ffffffffffff 020000000001 506f9a010000 0000 04030201")
        let header = try ManagementHeader(wireBytes: bytes, structure: "t")
        #expect(header.htControl == 0x0102_0304)
        #expect(header.wireBytes == bytes)
    }

    @Test func truncatedHeaderNamesTheAddress() {
        let bytes = hex("d000 0000 516f9a010000 020000000100 506f9a01")
        #expect(
            throws: WireError(.truncated(need: 6, have: 4), structure: "802.11 frame", field: "Address 3", offset: 16)
        ) {
            _ = try IEEE80211Frame(bytes: bytes)
        }
    }

    @Test func oneOctetIsNotAFrame() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "802.11 frame",
                field: "Frame Control",
                offset: 0
            )
        ) {
            _ = try IEEE80211Frame(bytes: [0xD0])
        }
    }

    @Test func headerDescribesItself() {
        let header = ManagementHeader(
            frameControl: .management(.action),
            address1: .nanNetworkID,
            address2: MACAddress(2, 0, 0, 0, 1, 0),
            address3: MACAddress(0x50, 0x6F, 0x9A, 1, 0xAB, 0xCD)
        )
        let keys = header.decodedFields.map(\.key)
        #expect(keys == ["frameControl", "duration", "address1", "address2", "address3", "sequenceControl"])
        #expect(header.decodedFields[2].value == .address(.nanNetworkID))
    }
}

@Suite struct FrameHeaderMalformedTests {
    @Test func truncatedControlFields() {
        #expect(throws: WireError(.truncated(need: 2, have: 1), structure: "t", field: "Frame Control", offset: 0)) {
            _ = try FrameControl(wireBytes: [0xD0], structure: "t")
        }
        #expect(throws: WireError(.truncated(need: 2, have: 0), structure: "t", field: "Sequence Control", offset: 0)) {
            _ = try SequenceControl(wireBytes: [], structure: "t")
        }
    }

    @Test func bodiesParsedDirectlyCheckTheirHeaders() {
        #expect(
            throws: WireError(
                .invalidValue("category 5 is not 4 or 9"),
                structure: "Service Discovery Frame",
                field: "Category",
                offset: 0
            )
        ) {
            _ = try ServiceDiscoveryFrame(wireBytes: FrameTestSupport.hex("0509506f9a13"), structure: "t")
        }
        #expect(
            throws: WireError(
                .invalidValue("OUI type 0x13 is not 0x18"),
                structure: "NAN Action Frame",
                field: "OUI Type",
                offset: 5
            )
        ) {
            _ = try NANActionFrame(wireBytes: FrameTestSupport.hex("0409506f9a1305"), structure: "t")
        }
        #expect(
            throws: WireError(
                .invalidValue("authentication algorithm 3 is not 7 (PASN)"),
                structure: "PASN Authentication frame",
                field: "Authentication Algorithm",
                offset: 0
            )
        ) {
            _ = try PASNAuthenticationFrame(wireBytes: FrameTestSupport.hex("030001000000"), structure: "t")
        }
        #expect(
            throws: WireError(.truncated(need: 2, have: 1), structure: "NAN Beacon", field: "Capability", offset: 10)
        ) {
            _ = try NANBeacon(wireBytes: FrameTestSupport.hex("0000000000000000 0002 20"), structure: "t")
        }
    }

    @Test func elementsParsedDirectlyCheckTheirIDs() {
        #expect(
            throws: WireError(
                .invalidValue("element ID extension 100 is not 8"),
                structure: "Wrapped Data element",
                field: "Element ID Extension",
                offset: 2
            )
        ) {
            _ = try WrappedDataElement(wireBytes: FrameTestSupport.hex("ff03640003"), structure: "t")
        }
        #expect(
            throws: WireError(.invalidValue("element ID 48 is not 140"), structure: "t", field: "Element ID", offset: 0)
        ) {
            _ = try MICElement(wireBytes: FrameTestSupport.hex("30020100"), structure: "t")
        }
        #expect(
            throws: WireError(
                .invalidValue("vendor prefix 0050f202 is not 506f9a13"),
                structure: "NAN element",
                field: "OUI and OUI Type",
                offset: 2
            )
        ) {
            _ = try NANElement(wireBytes: FrameTestSupport.hex("dd050050f20201"), structure: "t")
        }
    }
}

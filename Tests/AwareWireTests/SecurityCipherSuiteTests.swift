import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

@Suite struct SecurityCipherSuiteTests {
    // nan-wire-reference.md 2.13: capabilities 0x9d = 16 TKSA counters (b0) | GTK support 2
    // (b1-2 = 0x04) | 16 GTKSA counters (b3) | BIP-GMAC-256 (b4) | reserved b7; suites
    // {CSID 1, instance 1}, {CSID 5, instance 1}.
    @Test func csiaGolden() throws {
        let expected = hex("22 05 00 9d 01 01 05 01")
        let parsed = try CipherSuiteInfoAttribute(attributeBytes: expected)
        #expect(parsed.capabilities.rawValue == 0x9D)
        #expect(parsed.capabilities.tksaReplayCounters == 16)
        #expect(parsed.capabilities.gtkSupport == 2)
        #expect(parsed.capabilities.gtksaReplayCounters == 16)
        #expect(parsed.capabilities.usesBIPGMAC256)
        #expect(
            parsed.cipherSuites == [
                CipherSuite(csid: .ncsSK128, instanceID: 1), CipherSuite(csid: .ncsGTKCCMP128, instanceID: 1),
            ]
        )
        #expect(parsed.attributeBytes == expected)
        let built = CipherSuiteInfoAttribute(
            capabilities: CipherSuiteCapabilities(
                sixteenTKSAReplayCounters: true,
                gtkSupport: 2,
                sixteenGTKSAReplayCounters: true,
                bipGMAC256: true
            ),
            cipherSuites: parsed.cipherSuites
        )
        #expect(built.attributeBytes == hex("22 05 00 1d 01 01 05 01"))
    }

    @Test func csiaFromHostapPASNSession() throws {
        // session.pcap frame 22: capabilities 0, one suite CSID 7 (NCS-PK-PASN-128), instance 1.
        let parsed = try CipherSuiteInfoAttribute(attributeBytes: hex("22 03 00 00 07 01"))
        #expect(parsed.cipherSuites == [CipherSuite(csid: .ncsPKPASN128, instanceID: 1)])
        #expect(parsed.cipherSuites[0].csid.name == "NCS-PK-PASN-128")
        #expect(parsed.cipherSuites[0].csid.keyMICLayout == .octets16)
        #expect(parsed.capabilities.tksaReplayCounters == 4)
        #expect(parsed.capabilities.gtkSupportName == "None")
    }

    @Test func cipherSuiteNamesCoverTheTable() {
        let names = (0...9).map { CipherSuiteID(UInt8($0)).name }
        #expect(
            names == [
                "None", "NCS-SK-128", "NCS-SK-256", "NCS-PK-2WDH-128", "NCS-PK-2WDH-256", "NCS-GTK-CCMP-128",
                "NCS-GTK-GCMP-256", "NCS-PK-PASN-128", "NCS-PK-PASN-256", "Reserved",
            ]
        )
        #expect(CipherSuiteID.ncsPKPASN256.keyMICLayout == .octets24)
        #expect(CipherSuiteID.ncsGTKCCMP128.keyMICLayout == nil)
    }

    @Test func csiaOddLeftoverOctet() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "Cipher Suite Info attribute",
                field: "Cipher Suite",
                offset: 6
            )
        ) {
            _ = try CipherSuiteInfoAttribute(attributeBytes: hex("22 04 00 00 07 01 08"))
        }
    }

    // 2.14: {SCID Length 2, type 1, publish ID 3, aa bb}, {length 0, type 9, publish ID 4}.
    @Test func sciaGolden() throws {
        let expected = hex("23 0a 00 02 00 01 03 aa bb 00 00 09 04")
        let scia = SecurityContextInfoAttribute(identifiers: [
            .ndPMKID([0xAA, 0xBB], publishID: 3),
            SecurityContextIdentifier(type: 9, publishID: 4, identifier: []),
        ])
        #expect(scia.attributeBytes == expected)
        let parsed = try SecurityContextInfoAttribute(attributeBytes: expected)
        #expect(parsed == scia)
        #expect(parsed.ndPMKIDs == [[0xAA, 0xBB]])
    }

    @Test func sciaFromHostapSession() throws {
        // session.pcap frame 22; transcript.json ndp.pmkid = 2e31b7562f131a2cf7f37552cda31181.
        let bytes = hex("23 14 00 10 00 01 01 2e 31 b7 56 2f 13 1a 2c f7 f3 75 52 cd a3 11 81")
        let parsed = try SecurityContextInfoAttribute(attributeBytes: bytes)
        #expect(parsed.identifiers.count == 1)
        #expect(parsed.identifiers[0].type == SecurityContextIdentifier.ndPMKIDType)
        #expect(parsed.identifiers[0].publishID == 1)
        #expect(parsed.ndPMKIDs == [hex("2e31b7562f131a2cf7f37552cda31181")])
        #expect(parsed.attributeBytes == bytes)
    }

    @Test func sciaLengthPastEnd() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 16, actual: 2),
                structure: "Security Context Info attribute",
                field: "SCID Length",
                offset: 7
            )
        ) {
            _ = try SecurityContextInfoAttribute(attributeBytes: hex("23 06 00 10 00 01 01 aa bb"))
        }
    }
}

import Testing

@testable import AwareWire

@Suite struct ElementRSNTests {
    private let hex = FrameTestSupport.hex

    /// nan-wire-reference.md 3.4.1, frame 1 example: SAE, CCMP, no PMKID.
    private let withoutPMKID = "301a 0100 000fac07 0100 000fac04 0100 000fac08 c000 0000 000fac07"

    @Test func goldenWithoutPMKID() throws {
        let rsn = try RSNElement(wireBytes: hex(withoutPMKID), structure: "t")
        #expect(rsn.version == 1)
        #expect(rsn.groupDataCipherSuite == .groupAddressedTrafficNotAllowed)
        #expect(rsn.pairwiseCipherSuites == [.ccmp128])
        #expect(rsn.akmSuites == [.akmSAE])
        #expect(rsn.rsnCapabilities == 0x00C0)
        #expect(rsn.mfpRequired && rsn.mfpCapable)
        #expect(rsn.pmkids == [])
        #expect(rsn.groupManagementCipherSuite == .groupAddressedTrafficNotAllowed)
        #expect(rsn.wireBytes == hex(withoutPMKID))
        #expect(RSNElement.nanPairing(akm: .akmSAE, pairwise: .ccmp128, pmkid: nil).wireBytes == hex(withoutPMKID))
    }

    @Test func goldenWithOnePMKIDFromSessionFrame15() throws {
        let pmkid = hex("e72be19c5159b566195d9bea5d1a1e8b")
        let bytes = hex(
            "302a 0100 000fac07 0100 000fac04 0100 000fac08 c000 0100 e72be19c5159b566195d9bea5d1a1e8b 000fac07"
        )
        let rsn = try RSNElement(wireBytes: bytes, structure: "t")
        #expect(rsn.pmkids == [pmkid])
        #expect(rsn.groupManagementCipherSuite == .groupAddressedTrafficNotAllowed)
        #expect(RSNElement.nanPairing(akm: .akmSAE, pairwise: .ccmp128, pmkid: pmkid).wireBytes == bytes)
    }

    @Test func fieldsMayEndEarly() throws {
        // Version only; then up to the RSN Capabilities (no PMKID Count).
        let versionOnly = try RSNElement(wireBytes: hex("30020100"), structure: "t")
        #expect(versionOnly.groupDataCipherSuite == nil)
        #expect(versionOnly.wireBytes == hex("30020100"))
        let capabilitiesLast = hex("3014 0100 000fac04 0100 000fac04 0100 000fac02 0c00")
        let rsn = try RSNElement(wireBytes: capabilitiesLast, structure: "t")
        #expect(rsn.akmSuites?.first?.akmName == "PSK")
        #expect(rsn.rsnCapabilities == 0x000C)
        #expect(rsn.pmkids == nil)
        #expect(rsn.wireBytes == capabilitiesLast)
    }

    @Test func truncatedSuiteIsAnError() {
        #expect(
            throws: WireError(.truncated(need: 1, have: 0), structure: "RSN element", field: "Suite Type", offset: 7)
        ) {
            _ = try RSNElement(wireBytes: hex("3005 0100 000fac"), structure: "t")
        }
    }

    @Test func pmkidCountBeyondTheElementIsAnError() {
        // PMKID Count 2 but only one PMKID follows.
        let bytes = hex("3026 0100 000fac07 0100 000fac04 0100 000fac08 c000 0200 00112233445566778899aabbccddeeff")
        #expect(
            throws: WireError(.truncated(need: 32, have: 16), structure: "RSN element", field: "PMKID List", offset: 24)
        ) {
            _ = try RSNElement(wireBytes: bytes, structure: "t")
        }
    }

    @Test func describesSuitesByName() throws {
        let rsn = try RSNElement(wireBytes: hex(withoutPMKID), structure: "t")
        let fields = rsn.decodedFields
        #expect(fields.first { $0.key == "akmSuites" }?.value == .list([SuiteSelector.akmSAE.describe(cipher: false)]))
        #expect(SuiteSelector.akmSAE.akmName == "SAE")
        #expect(SuiteSelector.ccmp128.cipherName == "CCMP-128")
        #expect(fields.first { $0.key == "mfpRequired" }?.value == .flag(true))
    }
}

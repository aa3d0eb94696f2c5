import AwareCore
import Testing

@testable import AwareWire

private func bytes(_ hex: String) -> [UInt8] { HexString.decode(hex)! }

@Suite struct DeviceCapabilityDiscoveryAttributeTests {
    @Test func everySubFieldGolden() throws {
        // 2.6: Map ID 0x03 (specific map, ID 1); Committed DW Info 0x041a = 2.4 GHz DW 2 (b0-2),
        // 5 GHz DW 3 (b3-5), 5 GHz overwrite 1 (b10); bands 0x94 = 2.4 + 5 + 6 GHz; op mode 0x15 =
        // VHT + 160 + HE; antennas 0x21 = 1 TX, 2 RX; switch time 1000 µs (e8 03); capabilities 0x1f.
        let wire = bytes("0f 0900 03 1a04 94 15 21 e803 1f")
        let capability = DeviceCapabilityAttribute(
            mapID: 0x03,
            committedDWInfo: 0x041A,
            supportedBands: 0x94,
            operationMode: 0x15,
            numberOfAntennas: 0x21,
            maxChannelSwitchTime: 1000,
            capabilities: 0x1F
        )
        #expect(capability.attributeBytes == wire)
        let parsed = try DeviceCapabilityAttribute(attributeBytes: wire)
        #expect(parsed == capability)
        #expect(parsed.appliesToSpecificMap)
        #expect(parsed.specificMapID == 1)
        #expect(parsed.committedDW24GHz == 2)
        #expect(parsed.committedDW5GHz == 3)
        #expect(parsed.committedDW24GHzOverwrite == 0)
        #expect(parsed.committedDW5GHzOverwrite == 1)
        #expect(parsed.transmitAntennas == 1)
        #expect(parsed.receiveAntennas == 2)
        #expect(parsed.ndpeAttributeSupported)
        let fields = Dictionary(uniqueKeysWithValues: parsed.decodedFields.map { ($0.key, $0.value) })
        #expect(fields["band6GHz"] == .flag(true))
        #expect(fields["band5GHz"] == .flag(true))
        #expect(fields["bandSub1GHz"] == .flag(false))
        #expect(fields["vht160"] == .flag(true))
        #expect(fields["s3Capable"] == .flag(true))
    }

    @Test func lengthMustBeNine() {
        #expect(
            throws: WireError(
                .truncated(need: 1, have: 0),
                structure: "Device Capability attribute",
                field: "Capabilities",
                offset: 11
            )
        ) {
            _ = try DeviceCapabilityAttribute(attributeBytes: bytes("0f 0800 00 0900 04 11 11 0a00"))
        }
        #expect(throws: WireError(.trailingOctets(count: 1), structure: "Device Capability attribute", offset: 12)) {
            _ = try DeviceCapabilityAttribute(attributeBytes: bytes("0f 0a00 00 0900 04 11 11 0a00 08 00"))
        }
    }
}

@Suite struct DeviceCapabilityExtensionDiscoveryAttributeTests {
    @Test func pairingBitsGolden() throws {
        // 2.16 example: 2A 02 00 00 03 = pairing setup (b8) + NPK/NIK caching (b9).
        let wire = bytes("2a 0200 0003")
        let dcea = DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: true)
        #expect(dcea.attributeBytes == wire)
        let parsed = try DeviceCapabilityExtensionAttribute(attributeBytes: wire)
        #expect(parsed.capabilityInfo == 0x0300)
        #expect(parsed.pairingSetupEnabled && parsed.npkNIKCachingEnabled)
        #expect(!parsed.sixGHzRegulatoryInfoPresent)
    }

    @Test func regulatoryInfoGolden() throws {
        // b0 present, b1-3 = 2 (Very Low Power AP), b8 pairing setup -> 0x0105.
        let parsed = try DeviceCapabilityExtensionAttribute(attributeBytes: bytes("2a 0200 0501"))
        #expect(parsed.sixGHzRegulatoryInfoPresent)
        #expect(parsed.sixGHzRegulatoryInfo == 2)
        #expect(parsed.pairingSetupEnabled)
        #expect(!parsed.npkNIKCachingEnabled)
        let fields = Dictionary(uniqueKeysWithValues: parsed.decodedFields.map { ($0.key, $0.value) })
        #expect(fields["sixGHzRegulatoryInfo"] == .named(2, "Very Low Power AP"))
        #expect(fields["raw"] == nil)
    }

    @Test func extraOctetsAreKept() throws {
        let wire = bytes("2a 0400 0003 eeff")
        let parsed = try DeviceCapabilityExtensionAttribute(attributeBytes: wire)
        #expect(parsed.extra == [0xEE, 0xFF])
        #expect(parsed.attributeBytes == wire)
        #expect(parsed.decodedFields.last == DecodedField("raw", "Undecoded Octets", .bytes([0xEE, 0xFF])))
    }

    @Test func shorterThanTwoOctets() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "Device Capability Extension attribute",
                field: "Capability Info",
                offset: 3
            )
        ) {
            _ = try DeviceCapabilityExtensionAttribute(attributeBytes: bytes("2a 0100 03"))
        }
    }
}

@Suite struct IdentityResolutionDiscoveryAttributeTests {
    @Test func golden() throws {
        // 2.17: 2B 11 00 | 00 | nonce 8 | tag 8
        let wire = bytes("2b 1100 00 0001020304050607 f0f1f2f3f4f5f6f7")
        let nira = IdentityResolutionAttribute(
            nonce: [0, 1, 2, 3, 4, 5, 6, 7],
            tag: [0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7]
        )
        #expect(nira.attributeBytes == wire)
        #expect(try IdentityResolutionAttribute(attributeBytes: wire) == nira)
    }

    @Test func lengthMustBeExactly17() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 16, actual: 17),
                structure: "NAN Identity Resolution attribute",
                field: "Length",
                offset: 3
            )
        ) {
            _ = try IdentityResolutionAttribute(attributeBytes: bytes("2b 1000 00 0001020304050607 f0f1f2f3f4f5f6"))
        }
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 18, actual: 17),
                structure: "NAN Identity Resolution attribute",
                field: "Length",
                offset: 3
            )
        ) {
            _ = try IdentityResolutionAttribute(
                attributeBytes: bytes("2b 1200 00 0001020304050607 f0f1f2f3f4f5f6f7 00")
            )
        }
    }
}

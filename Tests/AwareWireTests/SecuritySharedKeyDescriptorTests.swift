import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }
private func zeros(_ count: Int) -> String { String(repeating: "00", count: count) }

/// Shared-Key Descriptor attributes copied byte for byte from
/// Fixtures/hostap-session-A/session.pcap (802.11 header 24 octets; SDF
/// attributes from body offset 6, NAF attributes from 7).
private enum HostapSession {
    /// Frame 17, phone -> accessory NIK, SKDA at frame offset 110. No Key MIC field.
    static let frame17 =
        "248000010210880010000000000000000000000000000000000000000000000000000000000000000000000000000000"
        + "00000000000000000000000000000000000000000000000000000000000000000000302e40504d3b880ad40e64221096"
        + "b645840cde289790253dce0d70faef7d9d2bf142f0db45ffe54bb17f5356b17f814545"
    /// Frame 18, accessory -> phone NIK, SKDA at frame offset 110. No Key MIC field.
    static let frame18 =
        "248000010210880010000000000000000000000000000000000000000000000000000000000000000000000000000000"
        + "0000000000000000000000000000000000000000000000000000000000000000000030f4d65e0dbf3782f5f66397b294"
        + "9799772266aa8223e011b7ee9dc1d29c401e69bfab8b25a2de4ae39fc44cfb38a56462"
    /// Frame 23, NDP m2 (Data Path Response), SKDA at frame offset 97. 16-octet Key MIC.
    static let frame23 =
        "24600001020108000000000000000000019ddfb87973bf6a06754dd5243b2ee0019495dbba4fbfd10964181bc3023d32"
        + "5100000000000000000000000000000000000000000000000000000000000000006090506946f8b0d698ad19b12b4aea"
        + "be0000"
}

@Suite struct SecuritySharedKeyDescriptorTests {
    // transcript.json nik_exchange.phone_nik: publish ID 1, type 2, Key Info 0x1088, Key
    // Length 16, everything else zero, Key Data Length 48, key_data_wrapped.
    @Test func hostapNIKDescriptorHasNoMICField() throws {
        let bytes = hex(HostapSession.frame17)
        #expect(bytes.count == 131)
        let skda = try SharedKeyDescriptorAttribute(attributeBytes: bytes)
        let descriptor = skda.keyDescriptor
        #expect(skda.publishID == 1)
        #expect(descriptor.micLayout == .absent)
        #expect(descriptor.mic.isEmpty)
        #expect(descriptor.keyInformation.rawValue == 0x1088)
        #expect(descriptor.keyInformation == [.pairwise, .keyAck, .encryptedKeyData])
        #expect(!descriptor.keyInformation.contains(.keyMIC))
        #expect(descriptor.keyInformation.descriptorVersion == 0)
        #expect(descriptor.keyLength == 16)
        #expect(descriptor.replayCounter == 0)
        #expect(descriptor.nonce == [UInt8](repeating: 0, count: 32))
        #expect(descriptor.iv == [UInt8](repeating: 0, count: 16))
        #expect(descriptor.rsc == [UInt8](repeating: 0, count: 8))
        #expect(descriptor.keyID == [UInt8](repeating: 0, count: 8))
        #expect(
            descriptor.keyData
                == hex(
                    "2e40504d3b880ad40e64221096b645840cde289790253dce0d70faef7d9d2bf142f0db45ffe54bb17f5356b17f814545"
                )
        )
        #expect(skda.attributeBytes == bytes)
    }

    @Test func hostapAccessoryNIKDescriptor() throws {
        let bytes = hex(HostapSession.frame18)
        let skda = try SharedKeyDescriptorAttribute(attributeBytes: bytes)
        #expect(skda.keyDescriptor.micLayout == .absent)
        #expect(skda.keyDescriptor.keyInformation.rawValue == 0x1088)
        #expect(skda.keyDescriptor.keyData.count == 48)
        #expect(
            skda.keyDescriptor.keyData
                == hex(
                    "f4d65e0dbf3782f5f66397b2949799772266aa8223e011b7ee9dc1d29c401e69bfab8b25a2de4ae39fc44cfb38a56462"
                )
        )
        #expect(skda.attributeBytes == bytes)
    }

    // transcript.json ndp: m2 Key Info 0x0108, replay counter 1, nonce = rnonce, MIC = m2 value.
    @Test func hostapNDPm2DescriptorHas16OctetMIC() throws {
        let bytes = hex(HostapSession.frame23)
        #expect(bytes.count == 99)
        let skda = try SharedKeyDescriptorAttribute(attributeBytes: bytes)
        let descriptor = skda.keyDescriptor
        #expect(skda.publishID == 1)
        #expect(descriptor.micLayout == .octets16)
        #expect(descriptor.keyInformation.rawValue == 0x0108)
        #expect(descriptor.keyInformation == [.pairwise, .keyMIC])
        #expect(descriptor.keyLength == 0)
        #expect(descriptor.replayCounter == 1)
        #expect(descriptor.nonce == hex("9ddfb87973bf6a06754dd5243b2ee0019495dbba4fbfd10964181bc3023d3251"))
        #expect(descriptor.mic == hex("6090506946f8b0d698ad19b12b4aeabe"))
        #expect(descriptor.keyData.isEmpty)
        #expect(skda.attributeBytes == bytes)
        // The MIC sits where the static offset says (frame 23: attribute at 97, MIC at 178).
        #expect(Array(bytes[(3 + SharedKeyDescriptorAttribute.micOffsetInBody)...].prefix(16)) == descriptor.mic)
        #expect(97 + 3 + SharedKeyDescriptorAttribute.micOffsetInBody == 178)
    }

    // 2.15 layout built by hand: publish 1 | 02 | 0x0088 | 0 | counter 1 | nonce 0x11.. |
    // zeros | 24-octet MIC 0x22.. | Key Data Length 3 | 01 02 03. Body 1 + 77 + 24 + 2 + 3 = 107.
    @Test func twentyFourOctetMICGolden() throws {
        let expected = hex(
            "24 6b 00 01 02 00 88 00 00 00 00 00 00 00 00 00 01"
                + String(repeating: "11", count: 32) + zeros(16 + 8 + 8)
                + String(repeating: "22", count: 24) + "00 03 01 02 03"
        )
        let skda = SharedKeyDescriptorAttribute(
            publishID: 1,
            keyDescriptor: RSNAKeyDescriptor(
                keyInformation: [.pairwise, .keyAck],
                replayCounter: 1,
                nonce: [UInt8](repeating: 0x11, count: 32),
                micLayout: .octets24,
                mic: [UInt8](repeating: 0x22, count: 24),
                keyData: [1, 2, 3]
            )
        )
        #expect(skda.attributeBytes == expected)
        let parsed = try SharedKeyDescriptorAttribute(attributeBytes: expected)
        #expect(parsed == skda)
        #expect(parsed.keyDescriptor.micLayout == .octets24)
    }

    @Test func serializeWritesTheCarriedLayout() {
        let descriptor = RSNAKeyDescriptor(keyInformation: [.pairwise], micLayout: .absent, keyData: [0xAB])
        #expect(descriptor.wireBytes == hex("02 00 08 00 00" + zeros(8 + 32 + 16 + 8 + 8) + "00 01 ab"))
        var withMIC = descriptor
        withMIC.micLayout = .octets16
        withMIC.mic = [0x01]
        #expect(withMIC.wireBytes == hex("02 00 08 00 00" + zeros(72) + "01" + zeros(15) + "00 01 ab"))
    }

    @Test func ambiguousLengthsPreferSixteenOctetMIC() throws {
        // After Key ID: MIC 00 10 00.. (16) | KDL 0000. Read MIC-less, 00 10 is a Key Data
        // Length of 16 that also fits exactly.
        let tail = hex("00 10" + zeros(14) + "00 00")
        #expect(RSNAKeyDescriptor.consistentMICLayouts(afterKeyID: tail) == [.octets16, .absent])
        let body = hex("01 02 00 88 00 00" + zeros(72)) + tail
        let skda = try SharedKeyDescriptorAttribute(wireBytes: body, structure: "SKDA")
        #expect(skda.keyDescriptor.micLayout == .octets16)
        #expect(skda.keyDescriptor.keyData.isEmpty)
        var reader = WireReader(body, structure: "SKDA")
        let forced = try SharedKeyDescriptorAttribute(from: &reader, micLayout: .absent)
        #expect(forced.keyDescriptor.keyData == hex(zeros(14) + "00 00"))
        #expect(forced.wireBytes == body)
    }

    @Test func noLayoutFitsIsALengthMismatch() {
        // 18 octets after Key ID: with a 16-octet MIC the Key Data Length says 5, none follow.
        let bytes = hex("24 60 00 01 02 01 08 00 00" + zeros(72) + zeros(16) + "00 05")
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 5, actual: 0),
                structure: "Shared-Key Descriptor attribute",
                field: "Key Data Length",
                offset: 97
            )
        ) {
            _ = try SharedKeyDescriptorAttribute(attributeBytes: bytes)
        }
    }

    @Test func missingKeyDataLength() {
        let bytes = hex("24 4f 00 01 02 01 08 00 00" + zeros(72) + "00")
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "Shared-Key Descriptor attribute",
                field: "Key Data Length",
                offset: 81
            )
        ) {
            _ = try SharedKeyDescriptorAttribute(attributeBytes: bytes)
        }
    }

    @Test func wrongDescriptorType() {
        let bytes = hex("24 50 00 01 fe 01 08 00 00" + zeros(72) + "00 00")
        #expect(
            throws: WireError(
                .invalidValue("descriptor type 254 is not 2 (IEEE 802.11 key descriptor)"),
                structure: "Shared-Key Descriptor attribute",
                field: "Descriptor Type",
                offset: 4
            )
        ) {
            _ = try SharedKeyDescriptorAttribute(attributeBytes: bytes)
        }
    }

    @Test func keyInformationAccessors() {
        // NDP m3 (4.2): 0x03c8 = Pairwise | Install | Ack | MIC | Secure; + Encrypted Key Data.
        var info = EAPOLKeyInformation(rawValue: 0x13C8)
        #expect(info == [.pairwise, .install, .keyAck, .keyMIC, .secure, .encryptedKeyData])
        info.keyIndex = 2
        info.descriptorVersion = 3
        #expect(info.rawValue == 0x13EB)
        #expect(info.keyIndex == 2)
        #expect(info.descriptorVersion == 3)
    }

    @Test func decodedFieldsShowLayoutAndFlags() throws {
        let skda = try SharedKeyDescriptorAttribute(attributeBytes: hex(HostapSession.frame17))
        guard case .fields(let fields) = skda.decodedFields.last?.value else {
            Issue.record("no key descriptor fields")
            return
        }
        #expect(fields.contains(DecodedField("micLayout", "Key MIC Layout", .named(0, "No Key MIC field"))))
        #expect(fields.contains(DecodedField("encryptedKeyData", "Encrypted Key Data", .flag(true))))
        #expect(fields.contains(DecodedField("keyDataLength", "Key Data Length", .unsigned(48))))
        #expect(fields.contains(DecodedField("keyMICBit", "Key MIC (bit 8)", .flag(false))))
        #expect(!fields.contains { $0.key == "keyMIC" })
    }
}

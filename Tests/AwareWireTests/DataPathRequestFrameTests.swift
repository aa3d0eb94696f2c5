import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

/// The NAF attributes of frame 22 of Fixtures/hostap-session-A/session.pcap
/// (Data Path Request, m1): frame offset 31 to the end (802.11 header 24, then category 09,
/// action 09, OUI 50 6f 9a, type 18, subtype 05). Values are checked against transcript.json.
private let frame22Attributes = hex(
    "0f09000009000411110a00082a02000003290c0002000002b000000102010d01220300000701231400100001012e31b7"
        + "562f131a2cf7f37552cda311812460000102008800000000000000000001f1f9d4df33db580f81ce7cec1fe7ee5b6be9"
        + "f0bf8f5fd9b79707b897a1764fc900000000000000000000000000000000000000000000000000000000000000000000"
        + "00000000000000000000000000000000121c001630000e00e111180004fefffeff11512000000700fa07115120000014"
        + "0400020000081503000c0300"
)

@Suite struct DataPathRequestFrameTests {
    private func attributes() throws -> [NANAttribute] {
        var reader = WireReader(frame22Attributes, structure: "NAN Action frame")
        return try NANAttribute.readList(from: &reader)
    }

    private func body<Body: NANAttributeBody>(_ type: Body.Type, in attributes: [NANAttribute]) throws -> Body {
        let match = attributes.first { $0.id == Body.attributeID }
        let attribute = try #require(match)
        return try Body(attributeBytes: attribute.wireBytes)
    }

    @Test func attributeIDsInOrder() throws {
        #expect(try attributes().map(\.id.rawValue) == [0x0F, 0x2A, 0x29, 0x22, 0x23, 0x24, 0x12, 0x14, 0x15])
    }

    @Test func ndpExtension() throws {
        let ndpe = try body(NDPExtensionAttribute.self, in: attributes())
        #expect(ndpe.type == .request)
        #expect(ndpe.status == .continued)
        #expect(ndpe.initiatorNDI == MACAddress(string: "02:b0:00:00:01:02"))  // ndp.initiator_ndi
        #expect(ndpe.ndpID == 1)
        #expect(ndpe.ndpControl.contains(.confirmRequired))
        #expect(ndpe.ndpControl.contains(.securityPresent))
        #expect(ndpe.publishID == 1)
        #expect(ndpe.responderNDI == nil)
    }

    @Test func securityAttributes() throws {
        let all = try attributes()
        let csia = try body(CipherSuiteInfoAttribute.self, in: all)
        #expect(csia.cipherSuites == [CipherSuite(csid: CipherSuiteID(7), instanceID: 1)])  // ndp.csid
        let scia = try body(SecurityContextInfoAttribute.self, in: all)
        #expect(scia.ndPMKIDs == [hex("2e31b7562f131a2cf7f37552cda31181")])  // ndp.pmkid
        let skda = try body(SharedKeyDescriptorAttribute.self, in: all)
        let m1 = skda.keyDescriptor
        #expect(skda.publishID == 1)
        #expect(m1.keyInformation.rawValue == 0x0088)  // ndp.mic_rule: m1 0x0088
        #expect(m1.keyLength == 0)
        #expect(m1.replayCounter == 1)
        #expect(m1.nonce == hex("f1f9d4df33db580f81ce7cec1fe7ee5b6be9f0bf8f5fd9b79707b897a1764fc9"))  // ndp.inonce
        #expect(m1.micLayout == .octets16)
        #expect(m1.mic == [UInt8](repeating: 0, count: 16))  // m1 carries an all-zero MIC
        #expect(m1.keyData.isEmpty)
    }

    @Test func scheduleAttributes() throws {
        let all = try attributes()
        let availability = try body(AvailabilityAttribute.self, in: all)
        #expect(availability.sequenceID == 0x16)
        #expect(availability.mapID == 0)
        #expect(availability.committedChanged && availability.potentialChanged)
        #expect(availability.entries.count == 2)
        let committed = availability.entries[0]
        #expect(committed.isCommitted)
        #expect(committed.utilization == 7)
        #expect(committed.rxNSS == 1)
        #expect(committed.timeBitmap?.control.bitDuration == .tu16)
        #expect(committed.timeBitmap?.control.period == .tu512)
        #expect(committed.timeBitmap?.bitmap == hex("fe ff fe ff"))
        #expect(committed.bandChannelEntries?.control == 0x11)
        #expect(
            committed.bandChannelEntries?.entries
                == .channels([ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)])
        )
        let potential = availability.entries[1]
        #expect(potential.isPotential && !potential.isCommitted)
        #expect(potential.usagePreference == 3)
        #expect(potential.timeBitmap == nil)

        let ndl = try body(NDLAttribute.self, in: all)
        #expect(ndl.dialogToken == 2)
        #expect(ndl.type == .request)
        #expect(ndl.status == .continued)
        #expect(ndl.ndlQoSAttributePresent)
        #expect(ndl.peerID == nil && ndl.maxIdlePeriod == nil && ndl.immutableSchedule == nil)

        let qos = try body(NDLQoSAttribute.self, in: all)
        #expect(qos.minimumTimeSlots == 12)
        #expect(qos.maximumLatency == 3)
    }

    @Test func everyDecodedAttributeReserializesExactly() throws {
        for attribute in try attributes() {
            let bytes = attribute.wireBytes
            let again: [UInt8]
            switch attribute.id {
            case .ndpExtension: again = try NDPExtensionAttribute(attributeBytes: bytes).attributeBytes
            case .cipherSuiteInfo: again = try CipherSuiteInfoAttribute(attributeBytes: bytes).attributeBytes
            case .securityContextInfo: again = try SecurityContextInfoAttribute(attributeBytes: bytes).attributeBytes
            case .sharedKeyDescriptor: again = try SharedKeyDescriptorAttribute(attributeBytes: bytes).attributeBytes
            case .availability: again = try AvailabilityAttribute(attributeBytes: bytes).attributeBytes
            case .ndl: again = try NDLAttribute(attributeBytes: bytes).attributeBytes
            case .ndlQoS: again = try NDLQoSAttribute(attributeBytes: bytes).attributeBytes
            default: continue  // Device Capability and DCEA belong to another helper.
            }
            #expect(again == bytes, "\(attribute.id)")
        }
    }
}

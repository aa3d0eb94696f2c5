import AwareCore
import AwareTestSupport
import Foundation
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

private let phoneNDI = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x01, 0x02)
private let accessoryNDI = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x01, 0x01)

/// The Generic Service Protocol (Service Protocol Type 2) in the NDPE Service Info TLV: the
/// service's transport port and protocol. Expected octets are written by hand from the layout:
/// TLV Type (1) | Length (2, LE) | OUI 50 6F 9A | type 02 | sub-attributes ID (1) | Length (2, LE) |
/// Value, the port little-endian as Android and ESP-IDF write it.
@Suite struct GenericServiceProtocolTests {
    /// Port 7000 = 0x1B58 -> 58 1b; UDP = 17 = 0x11. Value: OUI (3) + type (1) + port
    /// sub-attribute (1 + 2 + 2) + protocol sub-attribute (1 + 2 + 1) = 13 = 0x0d.
    static let port7000UDP = hex("01 0d 00 50 6f 9a 02 00 02 00 58 1b 01 01 00 11")

    @Test func port7000OverUDPAsAServiceInfoTLV() throws {
        let gsp = GenericServiceProtocol(transportPort: 7_000, transportProtocol: 17)
        #expect(gsp.wireBytes == hex("00 02 00 58 1b 01 01 00 11"))
        #expect(gsp.ndpExtensionTLV.wireBytes == Self.port7000UDP)
        let tlv = try NDPExtensionTLV(wireBytes: Self.port7000UDP, structure: "NDPE TLV")
        #expect(tlv == gsp.ndpExtensionTLV)
        let parsed = try #require(try tlv.genericServiceProtocol())
        #expect(parsed == gsp)
        #expect(parsed.transportPort == 7_000)
        #expect(parsed.transportProtocol == 17)
        #expect(parsed.serviceInstanceName == nil)
    }

    /// Android's `NetworkInformationData.buildTlv(8554, 6)`: OUI, type 2, then putShort(0x00,
    /// port) and putByte(0x01, protocol), all little-endian, wrapped in a type 1 TLV.
    /// 8554 = 0x216A -> 6a 21; TCP = 6.
    @Test func androidsLayoutForATCPService() throws {
        let android = hex("01 0d 00 50 6f 9a 02 00 02 00 6a 21 01 01 00 06")
        let tlv = try NDPExtensionTLV(wireBytes: android, structure: "NDPE TLV")
        guard case .serviceInfo(let oui, let type, _) = tlv else {
            Issue.record("not a Service Info TLV: \(tlv)")
            return
        }
        #expect(oui == ServiceSpecificInfo.wfaOUI)
        #expect(type == ServiceProtocolType.generic.rawValue)
        let gsp = try #require(try tlv.genericServiceProtocol())
        #expect(gsp.subAttributes == [.transportPort(8_554), .transportProtocol(6)])
        #expect(ServiceName.TransportProtocol(ipProtocolNumber: try #require(gsp.transportProtocol)) == .tcp)
        #expect(GenericServiceProtocol(transportPort: 8_554, transportProtocol: 6).ndpExtensionTLV.wireBytes == android)
    }

    /// ESP-IDF's pairing follow-up (nan_pairing.c): Transport Port, then 0x03 Name of Service
    /// Instance. "drone" = 64 72 6f 6e 65, length 5.
    @Test func espIDFsPortAndInstanceName() throws {
        let bytes = hex("00 02 00 58 1b 03 05 00 64 72 6f 6e 65")
        let gsp = try GenericServiceProtocol(wireBytes: bytes, structure: GenericServiceProtocol.structureName)
        #expect(gsp.subAttributes == [.transportPort(7_000), .serviceInstanceName(Array("drone".utf8))])
        #expect(gsp.serviceInstanceName == "drone")
        #expect(gsp.transportProtocol == nil)
        #expect(gsp.wireBytes == bytes)
        let info = ServiceSpecificInfo(protocolType: .generic, info: bytes)
        #expect(info.decodedFields.contains { $0.key == "genericServiceProtocol" })
    }

    /// Sub-attribute IDs no source confirms stay raw, round-trip and are described as unknown;
    /// the known ones around them are still read (Android skips unknown ones the same way).
    @Test func unknownSubAttributesAreKeptRaw() throws {
        let bytes = hex("02 03 00 aa bb cc 00 02 00 58 1b 7f 00 00")
        let gsp = try GenericServiceProtocol(wireBytes: bytes, structure: GenericServiceProtocol.structureName)
        #expect(
            gsp.subAttributes == [
                .other(id: 2, value: [0xAA, 0xBB, 0xCC]), .transportPort(7_000), .other(id: 0x7F, value: []),
            ]
        )
        #expect(gsp.transportPort == 7_000)
        #expect(gsp.wireBytes == bytes)
        #expect(gsp.subAttributes[0].decodedFields.first == DecodedField("id", "ID", .named(2, "Unknown")))
    }

    @Test func decodedFieldsNameThePortAndProtocol() throws {
        let tlv = try NDPExtensionTLV(wireBytes: Self.port7000UDP, structure: "NDPE TLV")
        let nested = try #require(tlv.decodedFields.first { $0.key == "genericServiceProtocol" })
        guard case .fields(let fields) = nested.value, case .list(let items) = fields.first?.value else {
            Issue.record("no sub-attribute list: \(nested)")
            return
        }
        #expect(
            items == [
                .fields([
                    DecodedField("id", "ID", .named(0, "Transport Port")),
                    DecodedField("transportPort", "Transport Port", .unsigned(7_000)),
                ]),
                .fields([
                    DecodedField("id", "ID", .named(1, "Transport Protocol")),
                    DecodedField("transportProtocol", "Transport Protocol", .named(17, "UDP")),
                ]),
            ]
        )
    }

    // MARK: Malformed

    /// The port sub-attribute says 2 octets, one remains: the Length field at offset 1 is blamed.
    @Test func aTruncatedSubAttributeIsALengthMismatch() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 2, actual: 1),
                structure: "Generic Service Protocol",
                field: "Sub-attribute Length",
                offset: 1
            )
        ) {
            _ = try GenericServiceProtocol(wireBytes: hex("00 02 00 58"), structure: "Generic Service Protocol")
        }
    }

    /// After a whole port sub-attribute, an ID and one octet of a Length.
    @Test func aTruncatedSubAttributeHeader() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "Generic Service Protocol",
                field: "Sub-attribute Length",
                offset: 6
            )
        ) {
            _ = try GenericServiceProtocol(
                wireBytes: hex("00 02 00 58 1b 01 01"),
                structure: "Generic Service Protocol"
            )
        }
    }

    /// A protocol sub-attribute whose Length (0x0105 = 261) runs past the end.
    @Test func aLengthOverrun() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 261, actual: 1),
                structure: "Generic Service Protocol",
                field: "Sub-attribute Length",
                offset: 1
            )
        ) {
            _ = try GenericServiceProtocol(wireBytes: hex("01 05 01 11"), structure: "Generic Service Protocol")
        }
    }

    /// Android refuses a port that is not 2 octets and a protocol that is not 1
    /// (`parseServiceInfoTlv`); so do we, naming the field.
    @Test func aPortOrProtocolOfTheWrongWidth() {
        #expect(
            throws: WireError(
                .invalidValue("a Transport Port sub-attribute carries 2 octets, not 1"),
                structure: "Generic Service Protocol",
                field: "Transport Port",
                offset: 1
            )
        ) {
            _ = try GenericServiceProtocol(wireBytes: hex("00 01 00 58"), structure: "Generic Service Protocol")
        }
        #expect(
            throws: WireError(
                .invalidValue("a Transport Protocol sub-attribute carries 1 octet, not 2"),
                structure: "Generic Service Protocol",
                field: "Transport Protocol",
                offset: 1
            )
        ) {
            _ = try GenericServiceProtocol(wireBytes: hex("01 02 00 11 00"), structure: "Generic Service Protocol")
        }
    }

    /// A malformed GSP does not make the NDPE unreadable: the TLV keeps its octets, the throwing
    /// accessor says what is wrong, the attribute's accessor passes it over.
    @Test func aMalformedServiceInfoLeavesTheAttributeReadable() throws {
        let ndpe = NDPExtensionAttribute(
            dialogToken: 2,
            type: .response,
            status: .accepted,
            initiatorNDI: phoneNDI,
            ndpID: 1,
            responderNDI: accessoryNDI,
            tlvs: [.serviceInfo(oui: ServiceSpecificInfo.wfaOUI, serviceProtocolType: 2, data: hex("00 02 00 58"))]
        )
        let parsed = try NDPExtensionAttribute(attributeBytes: ndpe.attributeBytes)
        #expect(parsed == ndpe)
        #expect(throws: WireError.self) { _ = try parsed.tlvs[0].genericServiceProtocol() }
        #expect(parsed.genericServiceProtocol == nil)
        #expect(parsed.transportPort == nil)
        #expect(!parsed.tlvs[0].decodedFields.contains { $0.key == "genericServiceProtocol" })
    }

    /// Service Info with another OUI or type is not a GSP, whatever its data.
    @Test func otherServiceInfoIsNotAGenericServiceProtocol() throws {
        let bonjour = NDPExtensionTLV.serviceInfo(oui: ServiceSpecificInfo.wfaOUI, serviceProtocolType: 1, data: [])
        #expect(try bonjour.genericServiceProtocol() == nil)
        let vendor = NDPExtensionTLV.serviceInfo(oui: [0x00, 0x17, 0xF2], serviceProtocolType: 2, data: [])
        #expect(try vendor.genericServiceProtocol() == nil)
        #expect(
            try NDPExtensionTLV.ipv6LinkLocal(interfaceIdentifier: [0, 0, 0, 0, 0, 0, 0, 1]).genericServiceProtocol()
                == nil
        )
    }

    // MARK: In the NDPE and NDP attributes

    /// A Data Path Response NDPE with both TLVs. Body: token 02, 0x11 (Response, Accepted),
    /// reason 00, initiator NDI, NDP ID 01, control 0x10 (Responder NDI), responder NDI = 17;
    /// IPv6 TLV 3 + 8 = 11; Service Info TLV 3 + 13 = 16. 17 + 11 + 16 = 44 = 0x2c.
    static let responseNDPE = hex(
        "29 2c 00 02 11 00 02 b0 00 00 01 02 01 10 02 a0 00 00 01 01"
            + " 00 08 00 00 a0 00 ff fe 00 01 01"
            + " 01 0d 00 50 6f 9a 02 00 02 00 58 1b 01 01 00 11"
    )

    @Test func theNDPEOfAResponseNamesThePortAndProtocol() throws {
        let ndpe = NDPExtensionAttribute(
            dialogToken: 2,
            type: .response,
            status: .accepted,
            initiatorNDI: phoneNDI,
            ndpID: 1,
            responderNDI: accessoryNDI,
            tlvs: [
                .ipv6LinkLocal(interfaceIdentifier: hex("00 a0 00 ff fe 00 01 01")),
                GenericServiceProtocol(transportPort: 7_000, transportProtocol: 17).ndpExtensionTLV,
            ]
        )
        #expect(ndpe.attributeBytes == Self.responseNDPE)
        let parsed = try NDPExtensionAttribute(attributeBytes: Self.responseNDPE)
        #expect(parsed.transportPort == 7_000)
        #expect(parsed.transportProtocol == 17)
        #expect(parsed.ipv6InterfaceIdentifier == hex("00 a0 00 ff fe 00 01 01"))
    }

    /// Android's placement in an NDP attribute: the same TLV as NDP Specific Info. Body: 17
    /// common octets (control 0x30: Responder NDI + NDP Specific Info) + 16 = 33 = 0x21.
    @Test func anNDPAttributeCarriesTheTLVInItsSpecificInfo() throws {
        let bytes = hex("10 21 00 02 11 00 02 b0 00 00 01 02 01 30 02 a0 00 00 01 01") + Self.port7000UDP
        let ndp = try NDPAttribute(attributeBytes: bytes)
        #expect(ndp.ndpSpecificInfo == Self.port7000UDP)
        #expect(
            ndp.ndpSpecificInfoTLVs == [
                GenericServiceProtocol(transportPort: 7_000, transportProtocol: 17).ndpExtensionTLV
            ]
        )
        #expect(ndp.genericServiceProtocol?.transportPort == 7_000)
        #expect(ndp.decodedFields.contains { $0.key == "ndpSpecificInfoTLVs" })
    }

    /// NDP Specific Info that is not exactly whole TLVs is an application's own octets: no TLV
    /// reading, no transport.
    @Test(arguments: [hex("aa bb"), hex("01 0d 00 50 6f 9a"), Self.port7000UDP + [0x00]])
    func otherSpecificInfoIsNotReadAsTLVs(info: [UInt8]) {
        let ndp = NDPAttribute(
            dialogToken: 2,
            type: .response,
            status: .accepted,
            initiatorNDI: phoneNDI,
            ndpID: 1,
            responderNDI: accessoryNDI,
            ndpSpecificInfo: info
        )
        #expect(ndp.ndpSpecificInfoTLVs == nil)
        #expect(ndp.genericServiceProtocol == nil)
        #expect(!ndp.decodedFields.contains { $0.key == "ndpSpecificInfoTLVs" })
    }

    /// Wireshark (tshark 4.0) reads the Service Info TLV as type 1, length 13, OUI 50:6f:9a and
    /// an undissected body, the NDP Specific Info as opaque octets; neither frame is malformed.
    @Test func tsharkReadsTheTLVInBothPlacements() throws {
        let ndp = NDPAttribute(
            dialogToken: 2,
            type: .response,
            status: .accepted,
            initiatorNDI: phoneNDI,
            ndpID: 1,
            responderNDI: accessoryNDI,
            ndpSpecificInfo: Self.port7000UDP
        )
        let records = try [
            NANAttribute.ndpExtension(NDPExtensionAttribute(attributeBytes: Self.responseNDPE)), .ndp(ndp),
        ].enumerated().map { index, attribute in
            let frame = NANActionFrame(category: .publicAction, subtype: .dataPathResponse, attributes: [attribute])
            let header = ManagementHeader(
                frameControl: .management(.action),
                address1: MACAddress(0x02, 0xB0, 0, 0, 0, 2),
                address2: MACAddress(0x02, 0xA0, 0, 0, 0, 1),
                address3: MACAddress(0x50, 0x6F, 0x9A, 0x01, 0, 0)
            )
            let mpdu = IEEE80211Frame.management(ManagementFrame(header: header, body: .nanAction(frame))).wireBytes
            return CaptureRecord(
                timestamp: 1_700_000_000_000_000_000 + UInt64(index) * 1_000,
                radiotap: Radiotap(
                    flags: RadiotapFlags(rawValue: 0),
                    rate: 12,
                    channel: RadiotapChannel(ofdmAt: 5745),
                    antennaSignal: -50
                ),
                frame: mpdu
            )
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("awarebench-gsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gsp.pcap").path
        try Data(PcapFile(linkType: .ieee80211Radiotap, records: records).bytes).write(to: URL(fileURLWithPath: path))

        let fields = try ExternalTool.tshark([
            "-r", path, "-T", "fields", "-e", "nan.ndpe.tlv.type", "-e", "nan.ndpe.tlv.len", "-e", "nan.oui", "-e",
            "nan.ndp.specific_info",
        ])
        #expect(fields.status == 0, "tshark failed: \(fields.errors)")
        #expect(
            fields.output
                == "0,1\t8,13\t50:6f:9a\t\n\t\t\t01-0d-00-50-6f-9a-02-00-02-00-58-1b-01-01-00-11\n"
        )
        let malformed = try ExternalTool.tshark(["-r", path, "-Y", "_ws.malformed || _ws.expert.severity >= warning"])
        #expect(malformed.output.isEmpty, "\(malformed.output)")
    }
}

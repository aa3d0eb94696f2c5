import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

private let phoneNDI = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x01, 0x02)
private let accessoryNDI = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x01, 0x01)

@Suite struct DataPathNDPTests {
    // nan-wire-reference.md 2.10: token 1, type/status 0x00 (Request, Continued), reason 0,
    // initiator NDI, NDP ID 1, control 0x2d (Confirm Required, Security Present, Publish ID,
    // NDP Specific Info), publish ID 3, specific info aa bb. Body 14 octets.
    @Test func ndpRequestGolden() throws {
        let expected = hex("10 0e 00 01 00 00 02 b0 00 00 01 02 01 2d 03 aa bb")
        let ndp = NDPAttribute(
            dialogToken: 1,
            type: .request,
            status: .continued,
            initiatorNDI: phoneNDI,
            ndpID: 1,
            ndpControl: [.confirmRequired, .securityPresent],
            publishID: 3,
            ndpSpecificInfo: [0xAA, 0xBB]
        )
        #expect(ndp.attributeBytes == expected)
        let parsed = try NDPAttribute(attributeBytes: expected)
        #expect(parsed == ndp)
        #expect(parsed.ndpControl.contains(.confirmRequired))
        #expect(parsed.responderNDI == nil)
    }

    // Response (1) | Rejected (2) << 4 = 0x21, reason 10 NDP_REJECTED, control 0x12
    // (reserved b1 + Responder NDI present). Body 17 octets.
    @Test func ndpRejectedResponseKeepsReservedBit() throws {
        let bytes = hex("10 11 00 07 21 0a 02 b0 00 00 01 02 05 12 02 a0 00 00 01 01")
        let ndp = try NDPAttribute(attributeBytes: bytes)
        #expect(ndp.type == .response)
        #expect(ndp.status == .rejected)
        #expect(ndp.reasonCode == .ndpRejected)
        #expect(ndp.responderNDI == accessoryNDI)
        #expect(ndp.ndpSpecificInfo == nil)
        #expect(ndp.ndpControl.rawValue == 0x12)
        #expect(ndp.attributeBytes == bytes)
        #expect(ndp.decodedFields.contains(DecodedField("reasonCode", "Reason Code", .named(10, "NDP_REJECTED"))))
    }

    @Test func ndpResponderNDITruncated() {
        #expect(
            throws: WireError(
                .truncated(need: 6, have: 3),
                structure: "NDP attribute",
                field: "Responder NDI",
                offset: 14
            )
        ) {
            _ = try NDPAttribute(attributeBytes: hex("10 0e 00 01 01 00 02 b0 00 00 01 02 01 10 02 a0 00"))
        }
    }

    @Test func ndpOctetsWithoutSpecificInfoBit() {
        #expect(throws: WireError(.trailingOctets(count: 1), structure: "NDP attribute", offset: 15)) {
            _ = try NDPAttribute(attributeBytes: hex("10 0d 00 01 00 00 02 b0 00 00 01 02 01 08 03 ff"))
        }
    }

    // 2.10: token 2, 0x11 (Response, Accepted), control 0x30 (Responder NDI + GTK Required),
    // TLV 0 (IPv6 link-local, 8 octets), TLV 1 (service info: OUI 50 6f 9a, type 2, 12 34),
    // TLV 7 (unknown, kept raw). Body 17 + 11 + 9 + 4 = 41.
    @Test func ndpeWithTLVsGolden() throws {
        let expected = hex(
            "29 29 00 02 11 00 02 b0 00 00 01 02 01 30 02 a0 00 00 01 01"
                + " 00 08 00 00 a0 00 ff fe 00 01 01"
                + " 01 06 00 50 6f 9a 02 12 34"
                + " 07 01 00 ee"
        )
        let ndpe = NDPExtensionAttribute(
            dialogToken: 2,
            type: .response,
            status: .accepted,
            initiatorNDI: phoneNDI,
            ndpID: 1,
            ndpControl: [.gtkRequired],
            responderNDI: accessoryNDI,
            tlvs: [
                .ipv6LinkLocal(interfaceIdentifier: hex("00 a0 00 ff fe 00 01 01")),
                .serviceInfo(oui: hex("50 6f 9a"), serviceProtocolType: 2, data: hex("12 34")),
                .other(type: 7, value: [0xEE]),
            ]
        )
        #expect(ndpe.attributeBytes == expected)
        let parsed = try NDPExtensionAttribute(attributeBytes: expected)
        #expect(parsed == ndpe)
        #expect(parsed.ndpControl.contains(.gtkRequired))
        #expect(parsed.ipv6InterfaceIdentifier == hex("00 a0 00 ff fe 00 01 01"))
        #expect(
            parsed.tlvs[1].decodedFields.contains(
                DecodedField("serviceProtocolType", "Service Protocol Type", .named(2, "Generic Service Protocol"))
            )
        )
    }

    @Test func ndpeFromHostapSession() throws {
        // session.pcap frame 22 (request) and frame 23 (response).
        let request = try NDPExtensionAttribute(attributeBytes: hex("29 0c 00 02 00 00 02 b0 00 00 01 02 01 0d 01"))
        #expect(request.type == .request)
        #expect(request.publishID == 1)
        #expect(request.ndpControl.contains(.securityPresent))
        #expect(request.tlvs.isEmpty)
        let response = try NDPExtensionAttribute(
            attributeBytes: hex("29 11 00 02 01 00 02 b0 00 00 01 02 01 14 02 a0 00 00 01 01")
        )
        #expect(response.type == .response)
        #expect(response.status == .continued)
        #expect(response.responderNDI == accessoryNDI)
    }

    @Test func ndpeIPv6TLVWithWrongLength() {
        #expect(
            throws: WireError(
                .invalidValue("an IPv6 link-local TLV carries an 8-octet Interface Identifier, not 4"),
                structure: "NDP Extension attribute",
                field: "TLV Length",
                offset: 15
            )
        ) {
            _ = try NDPExtensionAttribute(
                attributeBytes: hex("29 12 00 02 00 00 02 b0 00 00 01 02 01 00 00 04 00 01 02 03 04")
            )
        }
    }

    @Test func ndpeTLVLengthPastEnd() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 9, actual: 1),
                structure: "NDP Extension attribute",
                field: "TLV Length",
                offset: 17
            )
        ) {
            _ = try NDPExtensionAttribute(attributeBytes: hex("29 0f 00 02 00 00 02 b0 00 00 01 02 01 00 07 09 00 ee"))
        }
    }

    // 2.12: Map ID 0, HT Capabilities (45) with 2 octets, extension element 255/35 with 2 octets.
    @Test func elementContainerGolden() throws {
        let expected = hex("1d 0a 00 00 2d 02 aa bb ff 03 23 01 02")
        let container = ElementContainerAttribute(
            mapID: nil,
            elements: [
                InformationElement(id: 45, body: [0xAA, 0xBB]),
                InformationElement(id: 255, body: [0x23, 0x01, 0x02]),
            ]
        )
        #expect(container.attributeBytes == expected)
        let parsed = try ElementContainerAttribute(attributeBytes: expected)
        #expect(parsed == container)
        #expect(!parsed.mapIDValid)
        #expect(parsed.elements[1].extensionID == 35)
    }

    @Test func elementContainerMapID() throws {
        // Map 3, valid: 0x01 | 3 << 1 = 0x07.
        #expect(ElementContainerAttribute(mapID: 3, elements: []).attributeBytes == hex("1d 01 00 07"))
        let parsed = try ElementContainerAttribute(attributeBytes: hex("1d 01 00 e7"))
        #expect(parsed.mapIDValid)
        #expect(parsed.mapID == 3)
        #expect(parsed.attributeBytes == hex("1d 01 00 e7"))
    }

    @Test func elementContainerElementPastEnd() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 5, actual: 1),
                structure: "Element Container attribute",
                field: "Length",
                offset: 6
            )
        ) {
            _ = try ElementContainerAttribute(attributeBytes: hex("1d 04 00 00 2d 05 aa"))
        }
    }
}

import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

private let phoneNDI = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x01, 0x02)
private let accessoryNDI = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x01, 0x01)

/// The fields NDL, NDP and NDPE share (nan-wire-reference.md 2.9, 2.10) are written, read and
/// changed the same way through each attribute.
@Suite struct DataPathSharedFieldsTests {
    private let common = NDPCommonFields(
        dialogToken: 4,
        type: .confirm,
        status: .accepted,
        initiatorNDI: phoneNDI,
        ndpID: 2,
        responderNDI: accessoryNDI
    )

    // Confirm (2) | Accepted (1) << 4 = 0x12, reason 0, NDP ID 2, control 0x10 (Responder NDI
    // present), then the responder NDI. Body 17 octets; NDP (0x10) and NDPE (0x29) alike.
    @Test func ndpAndNDPEShareTheirCommonFields() throws {
        let body = "11 00 04 12 00 02 b0 00 00 01 02 02 10 02 a0 00 00 01 01"
        let ndp = NDPAttribute(common: common)
        let ndpe = NDPExtensionAttribute(common: common)
        #expect(ndp.attributeBytes == hex("10 " + body))
        #expect(ndpe.attributeBytes == hex("29 " + body))
        #expect(try NDPAttribute(attributeBytes: hex("10 " + body)).common == common)
        #expect(try NDPExtensionAttribute(attributeBytes: hex("29 " + body)).common == common)
    }

    // Setting Publish ID through the attribute sets control b3 and puts the octet before the
    // responder NDI: control 0x18, body 18 octets.
    @Test func fieldsChangeThroughTheAttribute() {
        var ndp = NDPAttribute(common: common)
        ndp.dialogToken = 9
        ndp.publishID = 3
        #expect(ndp.common.header.dialogToken == 9)
        #expect(ndp.typeAndStatus == 0x12)
        #expect(ndp.attributeBytes == hex("10 12 00 09 12 00 02 b0 00 00 01 02 02 18 03 02 a0 00 00 01 01"))
    }

    // Type code 3 is reserved in NDL (2.9) and Security Install in NDP (2.10).
    @Test func headerReadsTheTypeNibbleByAttribute() throws {
        let bytes = hex("01 13 05")
        let ndl = try DataPathHeader<NDLType>(wireBytes: bytes, structure: "NDL attribute")
        let ndp = try DataPathHeader<NDPType>(wireBytes: bytes, structure: "NDP attribute")
        #expect(ndl.type == .reserved(3))
        #expect(ndp.type == .securityInstall)
        #expect(ndl.status == .accepted && ndp.status == .accepted)
        #expect(ndl.reasonCode == NANReasonCode(5))
        #expect(ndl.wireBytes == bytes)
        #expect(ndp.wireBytes == bytes)
    }

    @Test func headerWithoutReasonCodeIsTruncated() {
        #expect(
            throws: WireError(.truncated(need: 1, have: 0), structure: "NDL attribute", field: "Reason Code", offset: 2)
        ) {
            _ = try DataPathHeader<NDLType>(wireBytes: hex("01 00"), structure: "NDL attribute")
        }
    }

    @Test func bothServiceIDListsReadTheSameBody() throws {
        let body = "0600 3425f17bda31"
        let list = try ServiceIDListAttribute(attributeBytes: hex("02 " + body))
        let subscribe = try SubscribeServiceIDListAttribute(attributeBytes: hex("28 " + body))
        #expect(list.serviceIDs == subscribe.serviceIDs)
        #expect(list.serviceIDs == [ServiceID(hex: "3425f17bda31")!])
        #expect(subscribe.attributeBytes == hex("28 " + body))
    }
}

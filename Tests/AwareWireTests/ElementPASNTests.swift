import Testing

@testable import AwareWire

@Suite struct ElementPASNTests {
    private let hex = FrameTestSupport.hex

    private func element(_ text: String, fromResponder: Bool = false) throws -> FrameElement {
        var reader = WireReader(hex(text), structure: "elements")
        let element = try FrameElement(from: &reader, context: .pasn(fromResponder: fromResponder))
        try reader.expectEnd()
        #expect(element.wireBytes == hex(text))
        return element
    }

    @Test func rsnxeTwoOctetsAsHostapSendsIt() throws {
        guard case .rsnExtension(let rsnx) = try element("f402 2100") else {
            Issue.record("not an RSNXE")
            return
        }
        #expect(rsnx.capabilities == [0x21, 0x00])
        #expect(rsnx.fieldLength == 2)
        #expect(rsnx.saeHashToElement)
        #expect(RSNExtensionElement.saeHashToElement().wireBytes == hex("f4022100"))
    }

    @Test func rsnxeOneOctetAsESPIDFSendsIt() throws {
        guard case .rsnExtension(let rsnx) = try element("f401 20") else {
            Issue.record("not an RSNXE")
            return
        }
        #expect(rsnx.fieldLength == 1)
        #expect(rsnx.saeHashToElement)
        #expect(RSNExtensionElement.saeHashToElement(octets: 1).wireBytes == hex("f40120"))
    }

    @Test func rsnxeLengthDisagreeingWithFieldLengthIsAnError() {
        // 0x20 says a 1-octet field, but the element holds 2.
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 1, actual: 2),
                structure: "RSNX element",
                field: "Field Length",
                offset: 2
            )
        ) {
            _ = try element("f402 2000")
        }
    }

    @Test func wrappedDataSmall() throws {
        guard case .wrappedData(let wrapped) = try element("ff04 08 030001") else {
            Issue.record("not Wrapped Data")
            return
        }
        #expect(wrapped.data == hex("030001"))
    }

    @Test func wrappedDataOf600OctetsIsFragmented() throws {
        let data = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        // 255 information octets (ext ID 08 + 254 data), then fragments of 255 and 91.
        let expected =
            [0xFF, 0xFF, 0x08] + Array(data[0..<254]) + [0xF2, 0xFF] + Array(data[254..<509]) + [0xF2, 0x5B]
            + Array(data[509..<600])
        #expect(WrappedDataElement(data: data).wireBytes == expected)
        #expect(expected.count == 607)
        var reader = WireReader(expected + hex("f4022100"), structure: "elements")
        let elements = try FrameElement.readList(from: &reader, context: .pasn(fromResponder: false))
        #expect(elements.count == 2)
        #expect(elements.first == .wrappedData(WrappedDataElement(data: data)))
        #expect(try WrappedDataElement(wireBytes: expected, structure: "t").data == data)
    }

    @Test func wrappedDataOfExactly254OctetsIsOneElement() throws {
        let data = [UInt8](repeating: 0xAB, count: 254)
        let bytes = WrappedDataElement(data: data).wireBytes
        #expect(bytes.count == 257)
        #expect(bytes.prefix(3) == [0xFF, 0xFF, 0x08])
        #expect(try WrappedDataElement(wireBytes: bytes, structure: "t").data == data)
    }

    @Test func emptyFragmentIsAnError() {
        let bytes = [0xFF, 0xFF, 0x08] + [UInt8](repeating: 1, count: 254) + [0xF2, 0x00]
        #expect(
            throws: WireError(
                .invalidValue("an empty Fragment element cannot continue an element"),
                structure: "t",
                field: "Fragment Length",
                offset: 258
            )
        ) {
            _ = try WrappedDataElement(wireBytes: bytes, structure: "t")
        }
    }

    @Test func pasnParametersWithGroupAndKey() throws {
        // nan-wire-reference.md 3.4.1: FF 27 64 02 03 13 00 21 02 <X 32>.
        let x = "c7cc5e3e849d1c598248a45926e67cdc84de9696f9a2df3d890b630db5b5d66e"
        guard case .pasnParameters(let parameters) = try element("ff27 64 02 03 1300 21 02" + x) else {
            Issue.record("not PASN Parameters")
            return
        }
        #expect(parameters.control == 0x02)
        #expect(parameters.wrappedDataFormat == .sae)
        #expect(parameters.comebackInfo == nil)
        #expect(parameters.ephemeralKey == PASNEphemeralKey(group: 19, publicKey: hex("02" + x)))
        #expect(parameters.ephemeralKey?.encoding == .named(2, "Compressed, even y"))
    }

    @Test func pasnParametersWithoutKeyAsInFrame3() throws {
        guard case .pasnParameters(let parameters) = try element("ff03 64 00 03") else {
            Issue.record("not PASN Parameters")
            return
        }
        #expect(parameters == PASNParametersElement(wrappedDataFormat: .sae))
        #expect(PASNParametersElement(wrappedDataFormat: .sae).wireBytes == hex("ff036400 03"))
    }

    @Test func comebackAfterOnlyFromTheResponder() throws {
        // Responder: control 0x01, format 0, Comeback After 0x00c8, cookie length 4, cookie.
        let responder = "ff0a 64 01 00 c800 04 01020304"
        guard case .pasnParameters(let fromResponder) = try element(responder, fromResponder: true) else {
            Issue.record("not PASN Parameters")
            return
        }
        #expect(fromResponder.comebackInfo == PASNComebackInfo(comebackAfter: 200, cookie: hex("01020304")))
        // Initiator echoing the cookie: no Comeback After.
        let initiator = "ff08 64 01 00 04 01020304"
        guard case .pasnParameters(let fromInitiator) = try element(initiator) else {
            Issue.record("not PASN Parameters")
            return
        }
        #expect(fromInitiator.comebackInfo == PASNComebackInfo(comebackAfter: nil, cookie: hex("01020304")))
    }

    @Test func reservedControlBitsSurvive() throws {
        guard case .pasnParameters(let parameters) = try element("ff03 64 80 07") else {
            Issue.record("not PASN Parameters")
            return
        }
        #expect(parameters.reservedControlBits == 0x80)
        #expect(parameters.wrappedDataFormat == .reserved(7))
    }

    @Test func pasnParametersKeyMissingIsAnError() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "PASN Parameters element",
                field: "Finite Cyclic Group",
                offset: 5
            )
        ) {
            _ = try element("ff04 64 02 03 13")
        }
    }

    @Test func micElement() throws {
        let mic = "00112233445566778899aabbccddeeff"
        #expect(try element("8c10" + mic) == .mic(try #require(MICElement(mic: hex(mic)))))
        #expect(
            try element("8c18" + mic + "0011223344556677")
                == .mic(try #require(MICElement(mic: hex(mic + "0011223344556677"))))
        )
        #expect(MICElement(mic: hex("0011")) == nil)
        #expect(
            throws: WireError(
                .invalidValue("a PASN MIC is 16 or 24 octets, not 8"),
                structure: "MIC element",
                field: "MIC",
                offset: 2
            )
        ) {
            _ = try element("8c08 0011223344556677")
        }
    }

    @Test func supportedGroups() throws {
        #expect(try element("ff03 a1 1300") == .supportedGroups(SupportedGroupsElement(groups: [19])))
        #expect(SupportedGroupsElement(groups: [19, 20]).wireBytes == hex("ff05 a1 1300 1400"))
        #expect(
            throws: WireError(
                .invalidValue("the group list has an odd number of octets"),
                structure: "Supported Groups element",
                field: "Supported Groups",
                offset: 3
            )
        ) {
            _ = try element("ff02 a1 13")
        }
    }

    @Test func nanElementWithAttributes() throws {
        // Session A frame 14: CSIA, DCEA, NPBA.
        let text = "dd17 506f9a13 220300 000701 2a0200 0003 2c0500 0101002000"
        guard case .nan(let nan) = try element(text) else {
            Issue.record("not the NAN element")
            return
        }
        #expect(nan.attributes.map(\.id) == [.cipherSuiteInfo, .deviceCapabilityExtension, .pairingBootstrapping])
        #expect(nan.attributes[0].wireBytes == hex("220300000701"))
    }

    @Test func otherElementsStayRaw() throws {
        // A non-NAN vendor element and an unknown extension element.
        #expect(try element("dd05 0050f20201") == .other(InformationElement(id: 221, body: hex("0050f20201"))))
        #expect(try element("ff02 5a01") == .other(InformationElement(id: 255, body: hex("5a01"))))
        #expect(try element("ff02 5a01").extensionID == 0x5A)
    }

    @Test func elementRunningPastTheBodyIsAnError() {
        var reader = WireReader(hex("f4022100 301a0100"), structure: "elements")
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 26, actual: 2),
                structure: "elements",
                field: "Length",
                offset: 6
            )
        ) {
            _ = try FrameElement.readList(from: &reader, context: .pasn(fromResponder: false))
        }
    }
}

import Testing

@testable import AwareWire

@Suite struct FramePASNTests {
    private let hex = FrameTestSupport.hex
    private let header = "b000 0000 02b000000002 02a000000001 506f9a011234 0000"

    @Test func frame2LaidOutFromTheReference() throws {
        // nan-wire-reference.md 3.4.1 frame 2: alg 7, seq 2, status 0; RSNE with PMKID,
        // Wrapped Data, RSNXE, PASN Parameters (responder key), NAN element, Supported
        // Groups, MIC.
        let x = "1449d9fa3aa4b0a7a0bb9ec31a1b6706fbf951c0323ae9ba209d7485e1d54742"
        let body =
            "0700 0200 0000"
            + "302a 0100 000fac07 0100 000fac04 0100 000fac08 c000 0100 00112233445566778899aabbccddeeff 000fac07"
            + "ff06 08 0300020000"
            + "f402 2100"
            + "ff27 64 02 03 1300 21 02" + x
            + "dd0a 506f9a13 220300 000701"
            + "ff03 a1 1300"
            + "8c10 0102030405060708090a0b0c0d0e0f10"
        let bytes = hex(header + body)
        let frame = try IEEE80211Frame(bytes: bytes)
        guard case .pasnAuthentication(let pasn) = frame.managementFrame?.body else {
            Issue.record("not PASN: \(frame)")
            return
        }
        #expect(pasn.transactionSequence == 2)
        #expect(pasn.isFromResponder)
        #expect(pasn.statusCode == 0)
        #expect(
            pasn.elements.map(\.name) == [
                "RSNE", "Wrapped Data", "RSNXE", "PASN Parameters", "NAN element", "Supported Groups", "MIC",
            ]
        )
        #expect(pasn.rsn?.pmkids == [hex("00112233445566778899aabbccddeeff")])
        #expect(pasn.wrappedData?.data == hex("0300020000"))
        #expect(pasn.rsnExtension?.saeHashToElement == true)
        #expect(pasn.pasnParameters?.ephemeralKey?.group == 19)
        #expect(pasn.nanElement?.attributes.map(\.id) == [.cipherSuiteInfo])
        #expect(pasn.mic?.mic == hex("0102030405060708090a0b0c0d0e0f10"))
        #expect(frame.wireBytes == bytes)
    }

    @Test func rejectWithOnlyTheNANElement() throws {
        // hostap nan_pairing_abort: status 1 with the NAN element (3.4.1).
        let bytes = hex(header + "0700 0200 0100 dd04 506f9a13")
        let frame = try IEEE80211Frame(bytes: bytes)
        guard case .pasnAuthentication(let pasn) = frame.managementFrame?.body else {
            Issue.record("not PASN")
            return
        }
        #expect(pasn.statusCode == 1)
        #expect(pasn.elements == [.nan(NANElement(attributes: []))])
        #expect(frame.wireBytes == bytes)
    }

    @Test func buildsFrame3() {
        let pasn = PASNAuthenticationFrame(
            transactionSequence: 3,
            elements: [
                .wrappedData(WrappedDataElement(data: hex("030002000000"))),
                .pasnParameters(PASNParametersElement(wrappedDataFormat: .sae)),
                .nan(NANElement(attributes: [])),
                .mic(MICElement(mic: [UInt8](repeating: 0xEE, count: 16))!),
            ]
        )
        let expected = hex(
            "0700 0300 0000 ff07 08 030002000000 ff03 64 00 03 dd04 506f9a13 8c10 eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
        )
        #expect(pasn.wireBytes == expected)
    }

    @Test func elementLengthBeyondBodyIsAnError() {
        let bytes = hex(header + "0700 0100 0000 301a 0100")
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 26, actual: 2),
                structure: "PASN Authentication frame",
                field: "Length",
                offset: 32
            )
        ) {
            _ = try IEEE80211Frame(bytes: bytes)
        }
    }

    @Test func truncatedFixedFieldsAreAnError() {
        let bytes = hex(header + "0700 01")
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "PASN Authentication frame",
                field: "Authentication Transaction Sequence Number",
                offset: 26
            )
        ) {
            _ = try IEEE80211Frame(bytes: bytes)
        }
    }

    @Test func describesElements() throws {
        let bytes = hex(header + "0700 0100 0000 f402 2100")
        let frame = try IEEE80211Frame(bytes: bytes)
        guard case .pasnAuthentication(let pasn) = frame.managementFrame?.body else {
            Issue.record("not PASN")
            return
        }
        guard case .list(let elements) = pasn.decodedFields[3].value, case .fields(let rsnx) = elements.first else {
            Issue.record("elements not described")
            return
        }
        #expect(rsnx.first?.value == .named(244, "RSNXE"))
        #expect(rsnx.contains { $0.key == "saeHashToElement" && $0.value == .flag(true) })
    }
}

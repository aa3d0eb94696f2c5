import Testing

@testable import AwareWire

/// The bench's application message (Sources/AwareWire/Application/AppMessage.swift), with the
/// expected octets written out by hand from its documented layout: magic 41 42, version 01,
/// kind, flow ID (2, BE), sequence (4, BE), sent-at (8, BE), payload length (2, BE), payload.
@Suite struct AppMessageTests {
    private func hex(_ text: String) -> [UInt8] { FrameTestSupport.hex(text) }

    private func parse(_ text: String) throws(WireError) -> AppMessage {
        try AppMessage(datagram: hex(text))
    }

    private func expectError(_ text: String, _ expected: WireError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: expected, sourceLocation: sourceLocation) { try AppMessage(datagram: hex(text)) }
    }

    @Test func datagramGoldenBytes() throws {
        // Flow 7, sequence 0x102, sent at 1 s (0x3b9aca00 ns), payload "hi".
        let message = AppMessage(flowID: 7, sequence: 0x102, sentAt: 1_000_000_000, body: .datagram(Array("hi".utf8)))
        let golden = "4142" + "01" + "01" + "0007" + "00000102" + "000000003b9aca00" + "0002" + "6869"
        #expect(message.wireBytes == hex(golden))
        #expect(try parse(golden) == message)
        #expect(
            message.decodedFields.map(\.key) == [
                "magic", "version", "kind", "flowID", "sequence", "sentAt", "payloadLength", "payload",
            ]
        )
        #expect(message.decodedFields[2].value == .named(1, "Datagram"))
        #expect(message.decodedFields[7].value == .bytes([0x68, 0x69]))
    }

    @Test func ackHasNoPayload() throws {
        let golden = "4142" + "01" + "03" + "0007" + "00000005" + "0000000000000000" + "0000"
        let ack = AppMessage(flowID: 7, sequence: 5, sentAt: 0, body: .ack)
        #expect(ack.wireBytes == hex(golden))
        #expect(try parse(golden) == ack)
    }

    @Test func fileMessagesGoldenBytes() throws {
        let zeroHeader = "0001" + "00000000" + "0000000000000000"
        let cases: [(AppMessageBody, String)] = [
            // Offset 0x1000, name "a.mov": 8 + 5 = 13 octets.
            (
                .fileRequest(FileRequest(name: "a.mov", offset: 0x1000)),
                "10" + zeroHeader + "000d" + "0000000000001000" + "612e6d6f76"
            ),
            // Size 700 (0x2bc), digest 32 x aa, name "x": 8 + 32 + 1 = 41 (0x29) octets.
            (
                .fileHeader(FileHeader(size: 700, sha256: [UInt8](repeating: 0xAA, count: 32), name: "x")),
                "11" + zeroHeader + "0029" + "00000000000002bc" + String(repeating: "aa", count: 32) + "78"
            ),
            (
                .fileChunk(FileChunk(offset: 0x20, data: [1, 2])),
                "12" + zeroHeader + "000a" + "0000000000000020" + "0102"
            ),
            (.fileEnd, "13" + zeroHeader + "0000"),
            (.fileError(FileError(code: .notFound, text: "no")), "14" + zeroHeader + "0003" + "01" + "6e6f"),
            (.segment([0xFE]), "02" + zeroHeader + "0001" + "fe"),
            (.control([]), "04" + zeroHeader + "0000"),
        ]
        for (body, tail) in cases {
            let message = AppMessage(flowID: 1, sequence: 0, sentAt: 0, body: body)
            let golden = hex("414201" + tail)
            #expect(message.wireBytes == golden, "\(body.kind.name)")
            #expect(try AppMessage(datagram: golden) == message, "\(body.kind.name)")
        }
    }

    @Test func fileHeaderDescribesItsFields() {
        let header = FileHeader(size: 3, sha256: [UInt8](repeating: 1, count: 32), name: "clip.mov")
        #expect(header.decodedFields.map(\.key) == ["size", "sha256", "name"])
        #expect(FileError(code: FileErrorCode(rawValue: 9), text: "?").decodedFields[0].value == .named(9, "Unknown"))
    }

    @Test func roundTripsEveryKind() throws {
        let bodies: [AppMessageBody] = [
            .datagram([1, 2, 3]), .segment(Array(0...255)), .ack, .control([9]),
            .fileRequest(FileRequest(name: "é.mov", offset: .max)),
            .fileHeader(FileHeader(size: 1 << 40, sha256: Array(0..<32), name: "")),
            .fileChunk(FileChunk(offset: 12, data: [])), .fileEnd, .fileError(FileError(code: .badRequest, text: "x")),
        ]
        #expect(Set(bodies.map(\.kind)) == Set(AppMessageKind.allCases))
        for body in bodies {
            let message = AppMessage(flowID: 0xBEEF, sequence: 0xDEAD_BEEF, sentAt: .max, body: body)
            #expect(try AppMessage(datagram: message.wireBytes) == message)
        }
    }

    @Test func badMagicVersionAndKind() {
        let rest = "0007" + "00000000" + "0000000000000000" + "0000"
        expectError(
            "4143" + "01" + "01" + rest,
            WireError(
                .invalidValue("magic is not \"AB\" (41 42)"),
                structure: "Application message",
                field: "Magic",
                offset: 0
            )
        )
        expectError(
            "4142" + "02" + "01" + rest,
            WireError(
                .invalidValue("version 2 is not 1"),
                structure: "Application message",
                field: "Version",
                offset: 2
            )
        )
        expectError(
            "4142" + "01" + "05" + rest,
            WireError(.invalidValue("unknown kind 0x05"), structure: "Application message", field: "Kind", offset: 3)
        )
    }

    @Test func truncatedHeader() {
        expectError(
            "4142" + "01" + "01" + "0007" + "0000",
            WireError(.truncated(need: 4, have: 2), structure: "Application message", field: "Sequence", offset: 6)
        )
    }

    @Test func payloadLengthMustMatch() {
        let header = "4142" + "01" + "01" + "0007" + "00000000" + "0000000000000000"
        expectError(
            header + "0003" + "6869",
            WireError(
                .lengthMismatch(declared: 3, actual: 2),
                structure: "Application message",
                field: "Payload",
                offset: 20
            )
        )
        expectError(
            header + "0001" + "6869",
            WireError(.trailingOctets(count: 1), structure: "Application message", offset: 21)
        )
    }

    @Test func payloadsThatDisagreeWithTheirKind() {
        let header = "0001" + "00000000" + "0000000000000000"
        expectError(
            "414201" + "03" + header + "0001" + "00",
            WireError(.trailingOctets(count: 1), structure: "Ack payload", offset: 20)
        )
        expectError(
            "414201" + "13" + header + "0001" + "00",
            WireError(.trailingOctets(count: 1), structure: "File End payload", offset: 20)
        )
        expectError(
            "414201" + "10" + header + "0009" + "0000000000000000" + "ff",
            WireError(
                .invalidValue("Name is not valid UTF-8"),
                structure: "File Request payload",
                field: "Name",
                offset: 28
            )
        )
        expectError(
            "414201" + "11" + header + "000a" + "0000000000000000" + "aaaa",
            WireError(.truncated(need: 32, have: 2), structure: "File Header payload", field: "SHA-256", offset: 28)
        )
        expectError(
            "414201" + "12" + header + "0004" + "00000000",
            WireError(.truncated(need: 8, have: 4), structure: "File Chunk payload", field: "Offset", offset: 20)
        )
        expectError(
            "414201" + "14" + header + "0000",
            WireError(.truncated(need: 1, have: 0), structure: "File Error payload", field: "Code", offset: 20)
        )
    }

    /// 255 octets of SDA Service Info (nan-wire-reference.md 2.4) less OUI and protocol type
    /// (2.5) less the 20-octet header.
    @Test func followUpLimit() throws {
        #expect(AppMessage.maximumFollowUpPayload == 231)
        let largest = AppMessage(flowID: 1, sequence: 0, sentAt: 0, body: .control([UInt8](repeating: 0, count: 231)))
        let carried = try FollowUpAppMessage(largest)
        #expect(carried.serviceInfo.oui == [0x50, 0x6F, 0x9A])
        #expect(carried.serviceInfo.protocolType.rawValue == 0)
        #expect(carried.serviceInfo.info.count + 4 == 255)
        #expect(try FollowUpAppMessage(serviceInfo: carried.serviceInfo) == carried)

        let tooLarge = AppMessage(flowID: 1, sequence: 0, sentAt: 0, body: .control([UInt8](repeating: 0, count: 232)))
        #expect(throws: AppMessageError.tooLargeForFollowUp(size: 232, limit: 231)) { try FollowUpAppMessage(tooLarge) }
        let text = AppMessageError.tooLargeForFollowUp(size: 232, limit: 231).description
        #expect(text.contains("232 octets") && text.contains("at most 231"))
    }

    @Test func followUpServiceInfoGoldenBytes() throws {
        let message = AppMessage(flowID: 2, sequence: 1, sentAt: 0, body: .control([0x54]))
        let info = try FollowUpAppMessage(message).serviceInfo
        #expect(info.info == hex("4142" + "01" + "04" + "0002" + "00000001" + "0000000000000000" + "0001" + "54"))
        let bonjour = ServiceSpecificInfo(protocolType: .bonjour, info: info.info)
        #expect(throws: WireError.self) { try FollowUpAppMessage(serviceInfo: bonjour) }
    }
}

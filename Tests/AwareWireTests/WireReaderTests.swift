import AwareCore
import Testing

@testable import AwareWire

@Suite struct WireReaderTests {
    @Test func readsLittleAndBigEndian() throws {
        var reader = WireReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06], structure: "test")
        #expect(try reader.readUInt16LE("a") == 0x0201)
        #expect(try reader.readUInt16BE("b") == 0x0304)
        #expect(reader.offset == 4)
        #expect(reader.remaining == 2)
    }

    @Test func truncationNamesFieldAndOffset() {
        var reader = WireReader([0x01, 0x02, 0x03], structure: "Service Descriptor attribute")
        _ = try? reader.readUInt16LE("x")
        #expect(
            throws: WireError(
                .truncated(need: 6, have: 1),
                structure: "Service Descriptor attribute",
                field: "Service ID",
                offset: 2
            )
        ) {
            _ = try reader.readBytes(6, "Service ID")
        }
    }

    @Test func subReaderIsBoundedAndKeepsAbsoluteOffsets() throws {
        var reader = WireReader([0xAA, 0x02, 0x10, 0x11, 0x12], structure: "outer")
        _ = try reader.readUInt8("id")
        let length = Int(try reader.readUInt8("len"))
        var body = try reader.subReader(length: length, structure: "inner", field: "Length")
        #expect(try body.readUInt16LE("v") == 0x1110)
        #expect(body.isAtEnd)
        #expect(throws: WireError.self) { _ = try body.readUInt8("past end") }
        #expect(reader.offset == 4)
        do {
            _ = try body.readUInt8("past end")
        } catch {
            #expect(error.offset == 4)
            #expect(error.structure == "inner")
        }
    }

    @Test func lyingLengthIsALengthMismatch() {
        var reader = WireReader([0x03, 0x09, 0x00, 0x01], structure: "attribute")
        _ = try? reader.readUInt8("id")
        _ = try? reader.readUInt16LE("len")
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 9, actual: 1),
                structure: "attribute",
                field: "Length",
                offset: 3
            )
        ) {
            _ = try reader.subReader(length: 9, field: "Length")
        }
    }

    @Test func writerBackpatchesLengths() {
        var writer = WireWriter()
        writer.write(0x03)
        writer.withLength16LE { $0.write([1, 2, 3]) }
        writer.withLength16BE { $0.write([4]) }
        writer.withLength8 { $0.writeUInt32BE(0x0A0B_0C0D) }
        #expect(writer.bytes == [0x03, 0x03, 0x00, 1, 2, 3, 0x00, 0x01, 4, 0x04, 0x0A, 0x0B, 0x0C, 0x0D])
    }

    @Test func hexRoundTrip() {
        #expect(HexString.decode("0x0A:bc ff") == [0x0A, 0xBC, 0xFF])
        #expect(HexString.decode("abc") == nil)
        #expect(HexString.decode("zz") == nil)
        #expect(HexString.encode([0x00, 0xFF, 0x10]) == "00ff10")
        #expect(MACAddress(string: "02:A0:00:00:00:01")?.description == "02:a0:00:00:00:01")
        #expect(MACAddress.nanNetworkID.isGroup)
    }
}

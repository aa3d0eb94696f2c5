import AwareCore
import Testing

@testable import AwareWire

@Suite struct ServiceResponseFilterTests {
    private let accessory = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)
    private let phone = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02)
    private let stranger = MACAddress(0x02, 0xC0, 0x00, 0x00, 0x00, 0x03)

    @Test func crc32CheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        // python3 -c 'import zlib; print(hex(zlib.crc32(b"a")))' -> 0xe8b7be43
        #expect(CRC32.checksum([0x61]) == 0xE8B7_BE43)
    }

    @Test func addressListIncludeAndExclude() throws {
        // SRF Control 0x02 (list, Include) | 02:a0:00:00:00:01 | 02:b0:00:00:00:02
        let wire: [UInt8] = [0x02, 0x02, 0xA0, 0x00, 0x00, 0x00, 0x01, 0x02, 0xB0, 0x00, 0x00, 0x00, 0x02]
        let include = try ServiceResponseFilter(wireBytes: wire, structure: "SRF")
        #expect(include.include)
        #expect(include.addressSet == .addressList([accessory, phone]))
        #expect(include.wireBytes == wire)
        #expect(include.matches(accessory))
        #expect(include.matches(phone))
        #expect(!include.matches(stranger))

        let exclude = try ServiceResponseFilter(wireBytes: [0x00] + wire.dropFirst(), structure: "SRF")
        #expect(!exclude.include)
        #expect(!exclude.matches(accessory))
        #expect(exclude.matches(stranger))
    }

    @Test func reservedControlBitsAndIndexRoundTrip() throws {
        // 0xFE: list, Include, index 3, reserved 0xF0 — all kept.
        let wire: [UInt8] = [0xFE, 0x02, 0xA0, 0x00, 0x00, 0x00, 0x01]
        let srf = try ServiceResponseFilter(wireBytes: wire, structure: "SRF")
        #expect(srf.bloomFilterIndex == 3)
        #expect(srf.reservedControlBits == 0xF0)
        #expect(srf.control == 0xFE)
        #expect(srf.wireBytes == wire)
    }

    @Test func bloomFilterBitPositions() {
        // python3: for j in 4..7: (zlib.crc32(bytes([j]) + bytes.fromhex("02a000000001")) ^ 0xffffffff) & 0xffff
        //          % 64  -> [25, 45, 48, 4]
        #expect(ServiceResponseFilter.bloomBitPositions(of: accessory, index: 1, length: 8) == [25, 45, 48, 4])
        // Same with index 0 and a 4-octet filter -> [10, 30, 3, 23].
        #expect(ServiceResponseFilter.bloomBitPositions(of: accessory, index: 0, length: 4) == [10, 30, 3, 23])
    }

    @Test func bloomFilterBuilderGoldenBytes() throws {
        // Positions (python3 + zlib, index 1, 8 octets): accessory [25, 45, 48, 4], phone [33, 21, 8, 60]
        // -> octets 10 01 20 02 02 20 01 10. Control = Bloom 0x01 | Include 0x02 | index 1 << 2 = 0x07.
        let srf = ServiceResponseFilter.bloom(addresses: [accessory, phone], index: 1, length: 8, include: true)
        #expect(srf.addressSet == .bloomFilter([0x10, 0x01, 0x20, 0x02, 0x02, 0x20, 0x01, 0x10]))
        #expect(srf.wireBytes == [0x07, 0x10, 0x01, 0x20, 0x02, 0x02, 0x20, 0x01, 0x10])
        #expect(srf.matches(accessory))
        #expect(srf.matches(phone))
        // stranger's positions [56, 12, 17, 37]: bit 56 (octet 7, bit 0) is clear.
        #expect(!srf.matches(stranger))

        let parsed = try ServiceResponseFilter(wireBytes: srf.wireBytes, structure: "SRF")
        #expect(parsed == srf)

        let exclude = ServiceResponseFilter.bloom(addresses: [accessory], index: 1, length: 8, include: false)
        #expect(exclude.control == 0x05)
        #expect(!exclude.matches(accessory))
        #expect(exclude.matches(stranger))
    }

    @Test func emptyBloomFilterMatchesNothing() throws {
        let srf = try ServiceResponseFilter(wireBytes: [0x03], structure: "SRF")
        #expect(srf.addressSet == .bloomFilter([]))
        #expect(!srf.matches(accessory))
        #expect(srf.wireBytes == [0x03])
    }

    @Test func malformedAddressList() {
        #expect(
            throws: WireError(
                .invalidValue("an address list of 5 octets is not a multiple of 6"),
                structure: "SRF",
                field: "Address Set",
                offset: 1
            )
        ) {
            _ = try ServiceResponseFilter(wireBytes: [0x02, 0x02, 0xA0, 0x00, 0x00, 0x00], structure: "SRF")
        }
        #expect(throws: WireError(.truncated(need: 1, have: 0), structure: "SRF", field: "SRF Control", offset: 0)) {
            _ = try ServiceResponseFilter(wireBytes: [], structure: "SRF")
        }
    }

    @Test func describesControlBits() {
        let srf = ServiceResponseFilter.bloom(addresses: [accessory], index: 2, length: 2, include: true)
        let keys = srf.decodedFields.map(\.key)
        #expect(keys == ["srfControl", "srfType", "include", "bloomFilterIndex", "bloomFilter"])
        #expect(srf.decodedFields[1].value == .named(1, "Bloom filter"))
        #expect(srf.decodedFields[3].value == .unsigned(2))
    }
}

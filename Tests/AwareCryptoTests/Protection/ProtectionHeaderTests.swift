import AwareTestSupport
import Testing

@testable import AwareCrypto

@Suite struct ProtectionHeaderTests {
    @Test func goldenLayoutPutsPN0PN1BeforeTheKeyIDOctet() throws {
        // PN 0x060504030201, Key ID 1: PN0 PN1 | 00 | Ext IV 0x20 + (1 << 6) = 0x60 | PN2..PN5
        // (IEEE 802.11-2020 12.5.3.2, Figure 12-16).
        #expect(try ProtectionHeader(packetNumber: 0x0605_0403_0201, keyID: 1).octets == hex("0102006003040506"))
        #expect(
            try ProtectionHeader(packetNumber: 0x0605_0403_0201, keyID: 1).packetNumberBigEndian == hex("060504030201")
        )
        #expect(try ProtectionHeader(packetNumber: 1, keyID: 3).octets == hex("010000e000000000"))
    }

    @Test func parseThenSerializeIsByteExactIncludingReservedBits() throws {
        for octets in [hex("0102ff7f03040506"), hex("ffffffdfffffffff"), hex("0000000000000000")] {
            let header = try ProtectionHeader(octets: octets[...])
            #expect(header.octets == octets)
        }
        let header = try ProtectionHeader(octets: hex("0102ff7f03040506")[...])
        #expect(header.packetNumber == 0x0605_0403_0201)
        #expect(header.reserved == 0xFF && header.keyID == 1 && header.extendedIV)
    }

    @Test func wrongLengthIsRefused() {
        #expect(throws: FrameProtectionError.invalidHeaderLength(expected: 8, actual: 7)) {
            try ProtectionHeader(octets: hex("01020060030405")[...])
        }
        #expect(throws: FrameProtectionError.invalidHeaderLength(expected: 8, actual: 9)) {
            try ProtectionHeader(octets: hex("010200600304050607")[...])
        }
    }
}

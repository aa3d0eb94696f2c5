import AwareCore
import Testing

@testable import AwareWire

@Suite struct TXTRecordTests {
    /// The hostap session's publish SSI (transcript.json parameters.publish_ssi.hex).
    private let sessionSSI = HexString.decode(
        "1676656e646f724e616d653d4578616d706c6520496e63176d6f64656c4e616d653d4578616d706c65204d6f64656c"
            + "1470616972696e674e616d653d4d792044726f6e65"
    )!

    @Test func decodesTheSessionPublishSSI() throws {
        let record = try DNSSDTXTRecord(wireBytes: sessionSSI, structure: "TXT")
        #expect(record.strings.count == 3)
        #expect(record.keys == ["vendorName", "modelName", "pairingName"])
        #expect(record["vendorName"] == "Example Inc")
        #expect(record["modelName"] == "Example Model")
        #expect(record["pairingName"] == "My Drone")
        #expect(record.wireBytes == sessionSSI)
    }

    @Test func buildsTheSessionSSIFromPairs() {
        let record = DNSSDTXTRecord([
            (key: "vendorName", value: "Example Inc"),
            (key: "modelName", value: "Example Model"),
            (key: "pairingName", value: "My Drone"),
        ])
        #expect(record.wireBytes == sessionSSI)
    }

    @Test func keysMatchCaseInsensitivelyFirstWins() {
        // 03 "a=1" | 03 "A=2" | 04 "flag" | 02 "e="
        let record = DNSSDTXTRecord(strings: [
            Array("a=1".utf8), Array("A=2".utf8), Array("flag".utf8), Array("e=".utf8),
        ])
        #expect(
            record.wireBytes == [
                0x03, 0x61, 0x3D, 0x31, 0x03, 0x41, 0x3D, 0x32, 0x04, 0x66, 0x6C, 0x61, 0x67, 0x02, 0x65, 0x3D,
            ]
        )
        #expect(record["A"] == "1")
        #expect(record.valueOctets(forKey: "FLAG") == [])
        #expect(record["e"] == "")
        #expect(record["missing"] == nil)
    }

    @Test func phoneValueRule() {
        let ok = DNSSDTXTRecord([(key: "vendorName", value: String(repeating: "x", count: 63))])
        #expect(ok.keyViolatingValueRule() == nil)
        let long = DNSSDTXTRecord([
            (key: "vendorName", value: "Example"),
            (key: "pairingName", value: String(repeating: "x", count: 64)),
        ])
        #expect(long.keyViolatingValueRule() == "pairingName")
        // 62 ASCII octets + "é" (2 octets) = 64 octets of UTF-8 though only 63 characters.
        let multibyte = DNSSDTXTRecord([(key: "modelName", value: String(repeating: "x", count: 62) + "é")])
        #expect(multibyte.keyViolatingValueRule() == "modelName")
        let notUTF8 = DNSSDTXTRecord(strings: [[0x6D, 0x3D, 0xFF]])
        #expect(notUTF8.keyViolatingValueRule() == "m")
        #expect(notUTF8["m"] == nil)
        #expect(notUTF8.valueOctets(forKey: "m") == [0xFF])
    }

    @Test func stringRunningPastTheEnd() {
        #expect(throws: WireError(.truncated(need: 5, have: 2), structure: "TXT", field: "TXT String", offset: 1)) {
            _ = try DNSSDTXTRecord(wireBytes: [0x05, 0x61, 0x62], structure: "TXT")
        }
    }

    @Test func emptyStringsRoundTrip() throws {
        let record = try DNSSDTXTRecord(wireBytes: [0x00], structure: "TXT")
        #expect(record.strings == [[]])
        #expect(record.wireBytes == [0x00])
    }
}

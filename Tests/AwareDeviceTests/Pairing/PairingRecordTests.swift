import AwareDevice
import AwareWire
import Testing

/// Keys stay out of every description a log or an error could print.
@Suite struct PairingRecordTests {
    static let npkHex = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    static let nikHex = "000102030405060708090a0b0c0d0e0f"

    static func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(describing: value), String(reflecting: value), dumped]
    }

    static func containsKeyMaterial(_ text: String) -> Bool {
        // The hex form and the array form ("[32, 33, 34, ...") of either key.
        text.contains(npkHex) || text.contains(nikHex) || text.contains("32, 33, 34") || text.contains("0, 1, 2, 3")
    }

    @Test func aRecordRedactsTheNPKAndTheNIK() {
        let record = PairingStoreTests.anna
        for text in Self.printed(record) {
            #expect(!Self.containsKeyMaterial(text), "\(text)")
            #expect(text.contains("02:b0:00:00:00:01"))
        }
        #expect(
            record.description
                == "PairingRecord(peerNMI: 02:b0:00:00:00:01, peerNIK: <redacted>, npk: <redacted>, akm: sae, "
                + "cipherSuite: 7, pairedAt: 1700000000, nikLifetimeSeconds: 0, label: \"Anna's iPhone\")"
        )
    }

    @Test func theContentsRedactTheOwnNIKAndEveryPeer() {
        let contents = PairingStoreContents(ownNIK: Array(0x00...0x0F), peers: [PairingStoreTests.anna])
        for text in Self.printed(contents) {
            #expect(!Self.containsKeyMaterial(text), "\(text)")
        }
    }

    @Test func invalidityNamesTheFirstBrokenRule() {
        var record = PairingStoreTests.anna
        #expect(record.invalidity == nil)
        record.peerNIK = [1, 2, 3]
        #expect(record.invalidity == "peerNIK has 3 octets, not 16")
        record.peerNIK = nil
        record.pairedAt = -1
        #expect(record.invalidity == "pairedAt is negative")
    }

    @Test func aNIKExpiresAfterItsLifetime() {
        var record = PairingStoreTests.anna
        #expect(record.nikIsValid(at: Int64.max))
        record.nikLifetimeSeconds = 3600
        #expect(record.nikIsValid(at: 1_700_003_599))
        #expect(!record.nikIsValid(at: 1_700_003_600))
        record.peerNIK = nil
        #expect(!record.nikIsValid(at: 1_700_000_000))
    }
}

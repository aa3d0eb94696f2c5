import AwareCore
import AwareDevice
import AwareWire
import Foundation
import Testing

/// `pairings.json`: what is written, what is refused on load, and that a refused file stays as it is.
@Suite struct PairingStoreTests {
    static let anna = PairingRecord(
        peerNMI: MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x01),
        peerNIK: Array(0x00...0x0F),
        npk: Array(0x20...0x3F),
        akm: .sae,
        cipherSuite: 7,
        pairedAt: 1_700_000_000,
        nikLifetimeSeconds: 0,
        label: "Anna's iPhone"
    )
    static let ben = PairingRecord(
        peerNMI: MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02),
        peerNIK: nil,
        npk: Array(repeating: 0x77, count: 32),
        akm: .pasn,
        cipherSuite: 8,
        pairedAt: 1_700_000_100,
        nikLifetimeSeconds: 3600
    )
    static let ownNIK: [UInt8] = Array(0xA0...0xAF)

    /// Written by hand from the format in PairingStore.swift (two-space indent, `"key": value`,
    /// sorted keys: what Python's `json.dumps(store, indent=2, sort_keys=True)` prints).
    static let golden = """
        {
          "format": 1,
          "ownNIK": "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
          "peers": [
            {
              "akm": "sae",
              "cipherSuite": 7,
              "label": "Anna's iPhone",
              "nikLifetimeSeconds": 0,
              "npk": "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
              "pairedAt": 1700000000,
              "peerNIK": "000102030405060708090a0b0c0d0e0f",
              "peerNMI": "02:b0:00:00:00:01"
            },
            {
              "akm": "pasn",
              "cipherSuite": 8,
              "nikLifetimeSeconds": 3600,
              "npk": "7777777777777777777777777777777777777777777777777777777777777777",
              "pairedAt": 1700000100,
              "peerNIK": null,
              "peerNMI": "02:b0:00:00:00:02"
            }
          ]
        }
        """

    /// One valid peer, as a template for the damaged variants below.
    static func file(
        format: String = "1",
        ownNIK: String = "\"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf\"",
        peers: [String]
    )
        -> String
    {
        "{\"format\": \(format), \"ownNIK\": \(ownNIK), \"peers\": [\(peers.joined(separator: ", "))]}"
    }

    static func peer(
        nmi: String = "02:b0:00:00:00:01",
        nik: String = "\"000102030405060708090a0b0c0d0e0f\"",
        npk: String = "\"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\"",
        akm: String = "\"sae\"",
        cipherSuite: String = "7"
    ) -> String {
        "{\"peerNMI\": \"\(nmi)\", \"peerNIK\": \(nik), \"npk\": \(npk), \"akm\": \(akm), "
            + "\"cipherSuite\": \(cipherSuite), \"pairedAt\": 1700000000, \"nikLifetimeSeconds\": 0}"
    }

    @Test func anAbsentFileIsAnEmptyStore() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        #expect(try store.load() == .empty)
        #expect(try store.records.isEmpty)
    }

    @Test func writesTheDocumentedFormat() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        #expect(try store.ownNIK { Self.ownNIK } == Self.ownNIK)
        try store.upsert(Self.anna, cap: nil)
        try store.upsert(Self.ben, cap: nil)
        #expect(String(decoding: try #require(temporary.contents("pairings.json")), as: UTF8.self) == Self.golden)
    }

    @Test func readsAHandWrittenFileInAnyKeyOrder() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let text = """
            {"peers": [{"nikLifetimeSeconds": 0, "label": "Anna's iPhone", "pairedAt": 1700000000,
            "cipherSuite": 7, "akm": "sae", "npk": "202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F",
            "peerNIK": "000102030405060708090a0b0c0d0e0f", "peerNMI": "02:B0:00:00:00:01"}],
            "ownNIK": null, "format": 1}
            """
        try temporary.write(text, to: "pairings.json")
        let store = try PairingStore(path: temporary.path)
        #expect(try store.load() == PairingStoreContents(ownNIK: nil, peers: [Self.anna]))
    }

    @Test func roundTripsThroughANewStore() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        do {
            let store = try PairingStore(path: temporary.path)
            _ = try store.ownNIK { Self.ownNIK }
            try store.upsert(Self.anna, cap: 8)
            try store.upsert(Self.ben, cap: 8)
        }
        let reopened = try PairingStore(path: temporary.path)
        #expect(try reopened.load() == PairingStoreContents(ownNIK: Self.ownNIK, peers: [Self.anna, Self.ben]))
    }

    @Test func theOwnNIKIsMadeOnceAndKept() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        var calls = 0
        do {
            let store = try PairingStore(path: temporary.path)
            #expect(
                try store.ownNIK {
                    calls += 1
                    return Self.ownNIK
                } == Self.ownNIK
            )
            #expect(
                try store.ownNIK {
                    calls += 1
                    return Array(repeating: 0, count: 16)
                } == Self.ownNIK
            )
        }
        let reopened = try PairingStore(path: temporary.path)
        #expect(
            try reopened.ownNIK {
                calls += 1
                return Array(repeating: 0, count: 16)
            } == Self.ownNIK
        )
        #expect(calls == 1)
    }

    @Test func anOwnNIKOfTheWrongLengthIsRefusedAndNotWritten() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        #expect(throws: DeviceStateError.invalidRecord(reason: "ownNIK has 15 octets, not 16")) {
            try store.ownNIK { Array(repeating: 1, count: 15) }
        }
        #expect(temporary.contents("pairings.json") == nil)
    }

    @Test func upsertReplacesTheSamePeerByNMIOrByNIK() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        try store.upsert(Self.anna, cap: 2)
        try store.upsert(Self.ben, cap: 2)
        var renewed = Self.anna
        renewed.npk = Array(repeating: 0x11, count: 32)
        try store.upsert(renewed, cap: 2)
        #expect(try store.records == [renewed, Self.ben])
        // The same phone, back with a new (random) NMI: its NIK says who it is.
        var moved = renewed
        moved.peerNMI = MACAddress(0x06, 0x11, 0x22, 0x33, 0x44, 0x55)
        try store.upsert(moved, cap: 2)
        #expect(try store.records == [moved, Self.ben])
    }

    @Test func oneMoreThanTheCapIsRefusedAndTheFileStaysByteIdentical() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        try store.upsert(Self.anna, cap: 1)
        let before = try #require(temporary.contents("pairings.json"))
        #expect(throws: DeviceStateError.pairedDeviceLimit(1)) { try store.upsert(Self.ben, cap: 1) }
        #expect(temporary.contents("pairings.json") == before)
        #expect(try store.records == [Self.anna])
    }

    @Test func anInvalidRecordIsRefusedAndNothingIsWritten() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        var short = Self.anna
        short.npk = Array(repeating: 0x20, count: 31)
        #expect(throws: DeviceStateError.invalidRecord(reason: "npk has 31 octets, not 32")) {
            try store.upsert(short, cap: nil)
        }
        var suite = Self.anna
        suite.cipherSuite = 6
        #expect(throws: DeviceStateError.invalidRecord(reason: "cipherSuite 6 is not 7 or 8")) {
            try store.upsert(suite, cap: nil)
        }
        #expect(temporary.contents("pairings.json") == nil)
    }

    @Test func removeForgetsOnePeer() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        try store.upsert(Self.anna, cap: nil)
        try store.upsert(Self.ben, cap: nil)
        #expect(try store.remove(peerNMI: Self.anna.peerNMI))
        #expect(try store.remove(peerNMI: Self.anna.peerNMI) == false)
        #expect(try store.records == [Self.ben])
    }

    @Test func resetDeletesThePeersAndTheOwnNIK() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        _ = try store.ownNIK { Self.ownNIK }
        try store.upsert(Self.anna, cap: nil)
        #expect(try store.reset())
        #expect(temporary.contents("pairings.json") == nil)
        #expect(try store.load() == .empty)
        #expect(try store.reset() == false)
    }

    @Test func aSecondStoreOnTheSameDirectoryIsInUse() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let first = try PairingStore(path: temporary.path)
        #expect(throws: DeviceStateError.inUse(path: temporary.path)) { try PairingStore(path: temporary.path) }
        withExtendedLifetime(first) {}
    }

    @Test func theFileIs0600InA0700Directory() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let store = try PairingStore(path: temporary.path)
        try store.upsert(Self.anna, cap: nil)
        #expect(DeviceStateDirectoryTests.mode(temporary.path) == 0o700)
        #expect(DeviceStateDirectoryTests.mode(temporary.file("pairings.json")) == 0o600)
    }

    @Test func aStaleTemporaryFromAnInterruptedWriteDoesNotCorruptTheStore() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        do {
            let store = try PairingStore(path: temporary.path)
            try store.upsert(Self.anna, cap: nil)
        }
        // What a crash between write() and rename() leaves behind.
        try temporary.write("{\"format\": 1, \"peers\": [{\"peerNMI\": \"02:b0", to: "pairings.json.tmp-31337")
        let store = try PairingStore(path: temporary.path)
        #expect(try store.records == [Self.anna])
        try store.upsert(Self.ben, cap: nil)
        #expect(try store.records == [Self.anna, Self.ben])
        let names = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(names == ["lock", "pairings.json"])
    }

    static let damaged: [(name: String, text: String, reason: String?, format: String?)] = [
        (
            "not JSON", "not json",
            "not valid JSON at line 1, column 1: unknown word; expected a value (strings need double quotes)", nil
        ),
        ("a list", "[]", "not a JSON object with a whole-number format", nil),
        ("no format", "{\"peers\": []}", "format is missing", nil),
        ("format 2", file(format: "2", peers: []), nil, "2"),
        ("format as text", file(format: "\"1\"", peers: []), "format has the wrong type", nil),
        (
            "bad hex", file(peers: [peer(npk: "\"" + String(repeating: "zz", count: 32) + "\"")]),
            "peers[0].npk is not hex digits", nil
        ),
        (
            "hex with separators", file(peers: [peer(nik: "\"00:01:02:03:04:05:06:07:08:09:0a:0b:0c:0d:0e:0f\"")]),
            "peers[0].peerNIK is not hex digits", nil
        ),
        (
            "NIK of 15 octets", file(peers: [peer(nik: "\"000102030405060708090a0b0c0d0e\"")]),
            "peers[0].peerNIK has 15 octets, not 16", nil
        ),
        (
            "NPK of 33 octets", file(peers: [peer(npk: "\"" + String(repeating: "20", count: 33) + "\"")]),
            "peers[0].npk has 33 octets, not 32", nil
        ),
        (
            "own NIK of 17 octets", file(ownNIK: "\"" + String(repeating: "a0", count: 17) + "\"", peers: []),
            "ownNIK has 17 octets, not 16", nil
        ),
        (
            "duplicate NMI", file(peers: [peer(), peer(nik: "null")]),
            "peers[1].peerNMI repeats an earlier peer's NMI", nil
        ),
        ("bad NMI", file(peers: [peer(nmi: "02:b0:00:00:01")]), "peers[0].peerNMI is not a MAC address", nil),
        ("unknown AKM", file(peers: [peer(akm: "\"psk\"")]), "peers[0].akm is not \"sae\" or \"pasn\"", nil),
        ("cipher suite 9", file(peers: [peer(cipherSuite: "9")]), "peers[0].cipherSuite is not 7 or 8", nil),
        ("cipher suite 263", file(peers: [peer(cipherSuite: "263")]), "peers[0].cipherSuite is not 7 or 8", nil),
        (
            "cipher suite 7.5", file(peers: [peer(cipherSuite: "7.5")]),
            "peers[0].cipherSuite is not a whole number in range", nil
        ),
        ("format 1.5", file(format: "1.5", peers: []), "format is not a whole number in range", nil),
        ("missing NPK", file(peers: [peer(npk: "null")]), "peers[0].npk is null", nil),
    ]

    @Test(arguments: damaged.indices)
    func aDamagedFileIsReportedExactlyAndLeftAlone(_ index: Int) throws {
        let (name, text, reason, format) = Self.damaged[index]
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write(text, to: "pairings.json")
        let store = try PairingStore(path: temporary.path)
        let path = temporary.file("pairings.json")
        let expected: DeviceStateError =
            if let format { .unsupportedFormat(path: path, format: format) } else {
                .corrupt(path: path, reason: reason ?? "")
            }
        #expect(throws: expected, "\(name)") { try store.load() }
        // Nor does a change write over it.
        #expect(throws: expected, "\(name)") { try store.upsert(Self.anna, cap: nil) }
        #expect(throws: expected, "\(name)") { try store.ownNIK { Self.ownNIK } }
        #expect(temporary.contents("pairings.json") == Data(text.utf8), "\(name)")
    }

    @Test func errorsNameTheFieldButNeverTheKey() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let nik = "c0ffeec0ffeec0ffeec0ffeec0ffee"
        try temporary.write(Self.file(peers: [Self.peer(nik: "\"\(nik)\"")]), to: "pairings.json")
        let store = try PairingStore(path: temporary.path)
        do {
            _ = try store.load()
            Issue.record("a 15-octet NIK loaded")
        } catch {
            #expect(error.description.contains("peers[0].peerNIK"))
            #expect(!error.description.contains(nik))
            #expect(!String(reflecting: error).contains(nik))
        }
    }
}

import AwareCore
import Testing

@testable import AwareWire

@Suite struct FrameBeaconTests {
    private let hex = FrameTestSupport.hex

    /// A Sync Beacon laid out by hand from nan-wire-reference.md 1.4: A1 broadcast, A2 NMI,
    /// A3 Cluster ID; Timestamp 0x12345678 µs, interval 512, capability 0x0420; a TIM
    /// element kept raw; the NAN IE with Master Indication (pref 0x80, random 5) and
    /// Cluster (AMR = MAC LE | random | pref, hop 0, AMBTT 0x12345678).
    private let beacon =
        "8000 0000 ffffffffffff 02a000000001 506f9a011234 0000"
        + "7856341200000000 0002 2004"
        + "0504 00010000"
        + "dd19 506f9a13 000200 8005 010d00 010000 00a0 02 0580 00 78563412"

    @Test func decodesTheHandBuiltSyncBeacon() throws {
        let bytes = hex(beacon)
        let frame = try IEEE80211Frame(bytes: bytes)
        guard case .nanBeacon(let nan) = frame.managementFrame?.body else {
            Issue.record("not a NAN beacon: \(frame)")
            return
        }
        #expect(frame.managementFrame?.header.address1 == .broadcast)
        #expect(nan.timestamp == 0x1234_5678)
        #expect(nan.beaconInterval == NANBeacon.syncBeaconInterval)
        #expect(nan.beaconTypeName == "Sync Beacon")
        #expect(nan.capability == 0x0420)
        #expect(nan.elements.count == 2)
        #expect(nan.elements[0] == .other(InformationElement(id: 5, body: hex("00010000"))))
        #expect(nan.attributes.map(\.id) == [.masterIndication, .cluster])
        #expect(
            nan.attributes[0]
                == .masterIndication(MasterIndicationAttribute(masterPreference: 0x80, randomFactor: 0x05))
        )
        #expect(frame.wireBytes == bytes)
    }

    @Test func buildsTheSameOctets() {
        let nanElement = NANElement(attributes: [
            .unknown(id: .masterIndication, body: hex("8005")),
            .unknown(id: .cluster, body: hex("01000000a0020580 00 78563412")),
        ])
        let body = NANBeacon(
            timestamp: 0x1234_5678,
            beaconInterval: 512,
            capability: 0x0420,
            elements: [.other(InformationElement(id: 5, body: hex("00010000"))), .nan(nanElement)]
        )
        let header = ManagementHeader(
            frameControl: .management(.beacon),
            address1: .broadcast,
            address2: MACAddress(0x02, 0xA0, 0, 0, 0, 1),
            address3: MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
        )
        let frame = IEEE80211Frame.management(ManagementFrame(header: header, body: .nanBeacon(body)))
        #expect(frame.wireBytes == hex(beacon))
    }

    @Test func discoveryAndOtherIntervalsAreKept() throws {
        for (interval, name) in [("6400", "Discovery Beacon"), ("3412", "Unknown")] {
            let bytes = hex(
                "8000 0000 ffffffffffff 02a000000001 506f9a011234 0000 0000000000000000" + interval
                    + "2004 dd04 506f9a13"
            )
            let frame = try IEEE80211Frame(bytes: bytes)
            guard case .nanBeacon(let nan) = frame.managementFrame?.body else {
                Issue.record("not a NAN beacon")
                continue
            }
            #expect(nan.beaconTypeName == name)
            #expect(nan.attributes.isEmpty)
            #expect(frame.wireBytes == bytes)
        }
    }

    @Test func nanBeaconWithBrokenAttributeIsAnError() {
        // The NAN IE holds an attribute header claiming 2 octets with none following.
        let bytes = hex(
            "8000 0000 ffffffffffff 02a000000001 506f9a011234 0000 0000000000000000 0002 2004 dd07 506f9a13 000200"
        )
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 2, actual: 0),
                structure: "NAN element",
                field: "Length",
                offset: 45
            )
        ) {
            _ = try IEEE80211Frame(bytes: bytes)
        }
    }
}

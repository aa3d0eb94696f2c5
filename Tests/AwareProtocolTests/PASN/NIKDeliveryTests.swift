import AwareCrypto
import AwareProtocol
import AwareTestSupport
import AwareWire
import Testing

/// NIK delivery against hostap session A frames 17 and 18, and ESP-IDF's descriptor form.
@Suite struct NIKDeliveryTests {
    typealias Fixture = PASNSessionFixture

    static func attributes(ofFrame number: Int) throws -> [NANAttribute] {
        guard case .serviceDiscovery(let sdf) = try Fixture.received(number).frame.body else {
            throw SessionFixture.Missing(description: "frame \(number) is not an SDF")
        }
        return sdf.attributes
    }

    @Test(arguments: [(17, "phone", UInt32(86400)), (18, "accessory", UInt32(43200))])
    func buildsTheRecordedDescriptorByteForByte(frame: Int, side: String, lifetime: UInt32) throws {
        let attribute = try NIKDelivery.attribute(
            nik: try Fixture.transcriptBytes("nik_exchange.\(side)_nik.nik"),
            lifetimeSeconds: lifetime,
            nmKEK: try Fixture.transcriptBytes("pairing.nan_keys.nm_kek"),
            suite: .ncsPKPASN128,
            publishID: 1,
            form: .noMIC
        )
        // The SKDA runs from offset 110 to the end of the frame (transcript "descriptor").
        let recorded = try SessionFixture.frame(frame)
        #expect(attribute.wireBytes == Array(recorded[110...]))
    }

    @Test(arguments: [(17, "phone"), (18, "accessory")])
    func receivesTheRecordedNIK(frame: Int, side: String) throws {
        let received = try #require(
            NIKDelivery.receive(
                try Self.attributes(ofFrame: frame),
                nmKEK: try Fixture.transcriptBytes("pairing.nan_keys.nm_kek")
            )
        )
        let data = try received.get()
        #expect(data.nik == (try Fixture.transcriptBytes("nik_exchange.\(side)_nik.nik")))
        #expect(data.lifetime == (side == "phone" ? 86400 : 43200))
    }

    @Test(arguments: [KeyMICLayout.octets16, .octets24])
    func acceptsESPIDFsDescriptorWithAZeroMICAndNoLifetime(layout: KeyMICLayout) throws {
        let kek = [UInt8](repeating: 0x42, count: 16)
        let nik = [UInt8](repeating: 0x17, count: 16)
        let descriptor = RSNAKeyDescriptor(
            keyInformation: EAPOLKeyInformation(rawValue: 0x12C8),
            keyLength: 16,
            micLayout: layout,
            keyData: try NIKKeyData(nik: nik, lifetime: nil).wrapped(kek: kek)
        )
        let attribute = NANAttribute.sharedKeyDescriptor(
            SharedKeyDescriptorAttribute(publishID: 3, keyDescriptor: descriptor)
        )
        // Through the wire and back, so the receiver has to work the layout out itself.
        var reader = WireReader(attribute.wireBytes, structure: "test")
        let parsed = try NANAttribute(from: &reader)
        let data = try #require(NIKDelivery.receive([parsed], nmKEK: kek)).get()
        #expect(data.nik == nik && data.lifetime == nil)
    }

    /// What we send by default, current hostap's form: SKDA 24 | length | Publish ID | Descriptor
    /// Type 02 | Key Information 11 88 (Key Type, Ack, MIC, Encrypted Key Data) | Key Length 00 10 |
    /// Replay Counter, Nonce, IV, RSC (8 + 32 + 16 + 8 = 64 zero octets) | Key ID 8 zero octets |
    /// Key MIC 16 zero octets | Key Data Length 00 30 | 48 wrapped octets. Read back in every form.
    @Test func theZeroMICFormByHand() throws {
        let kek = [UInt8](repeating: 0x42, count: 16)
        let nik = [UInt8](repeating: 0x17, count: 16)
        let attribute = try NIKDelivery.attribute(
            nik: nik,
            lifetimeSeconds: 43_200,
            nmKEK: kek,
            suite: .ncsPKPASN128,
            publishID: 5
        )
        let bytes = attribute.wireBytes
        // 3 (attribute header) + 1 (Publish ID) + 1 + 2 + 2 + 64 + 8 + 16 + 2 + 48 = 147.
        #expect(bytes.count == 147)
        #expect(Array(bytes[0...8]) == [0x24, 0x90, 0x00, 0x05, 0x02, 0x11, 0x88, 0x00, 0x10])
        #expect(bytes[9..<97].allSatisfy { $0 == 0 })
        #expect(Array(bytes[97..<99]) == [0x00, 0x30])
        var reader = WireReader(bytes, structure: "test")
        let parsed = try NANAttribute(from: &reader)
        let data = try #require(NIKDelivery.receive([parsed], nmKEK: kek)).get()
        #expect(data.nik == nik && data.lifetime == 43_200)
    }

    @Test func aWrongKEKFailsTheKeyUnwrap() throws {
        var kek = try Fixture.transcriptBytes("pairing.nan_keys.nm_kek")
        kek[0] ^= 1
        let received = try #require(NIKDelivery.receive(try Self.attributes(ofFrame: 17), nmKEK: kek))
        #expect(throws: KeyDerivationError.integrityCheckFailed) { try received.get() }
    }

    /// A profile's 0 ("no expiry") goes on the air as the largest lifetime the KDE holds: the
    /// plaintext's Key Lifetime KDE is DD 0A 50 6F 9A 25 | 08 00 (NIK) | FF FF FF FF, worked out
    /// from the KDE layout; a phone keeps it as no expiry. Other lifetimes go as they are.
    @Test func noExpiryGoesOnTheAirAsTheLargestLifetime() throws {
        #expect(NIKDelivery.lifetimeOnWire(seconds: 0) == 0xFFFF_FFFF)
        #expect(NIKDelivery.lifetimeOnWire(seconds: 2_592_000) == 2_592_000)
        let nik = [UInt8](repeating: 0x07, count: 16)
        let data = try NIKKeyData(nik: nik, lifetime: NIKDelivery.lifetimeOnWire(seconds: 0))
        let plaintext = data.plaintext()
        #expect(Array(plaintext[23..<35]) == [0xDD, 0x0A, 0x50, 0x6F, 0x9A, 0x25, 0x08, 0x00, 0xFF, 0xFF, 0xFF, 0xFF])
        let kek = [UInt8](repeating: 0x42, count: 16)
        let attribute = try NIKDelivery.attribute(
            nik: nik,
            lifetimeSeconds: NIKDelivery.lifetimeOnWire(seconds: 0),
            nmKEK: kek,
            suite: .ncsPKPASN128,
            publishID: 1
        )
        let received = try #require(NIKDelivery.receive([attribute], nmKEK: kek)).get()
        #expect(NIKDelivery.keptLifetime(received: received.lifetime) == 0)
    }

    /// What a phone keeps: no KDE, 0 (ESP-IDF's "no expiry") and the maximum mean no expiry (0);
    /// hostap's recorded 43,200 s and 86,400 s are kept as sent.
    @Test func keptLifetimes() {
        #expect(NIKDelivery.keptLifetime(received: nil) == 0)
        #expect(NIKDelivery.keptLifetime(received: 0) == 0)
        #expect(NIKDelivery.keptLifetime(received: 0xFFFF_FFFF) == 0)
        #expect(NIKDelivery.keptLifetime(received: 43_200) == 43_200)
        #expect(NIKDelivery.keptLifetime(received: 86_400) == 86_400)
    }

    @Test func noDescriptorIsNil() {
        #expect(NIKDelivery.receive([], nmKEK: []) == nil)
    }
}

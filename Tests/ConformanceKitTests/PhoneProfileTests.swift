import AwareCore
import AwareCrypto
import AwareWire
import Foundation
import Testing

@testable import AwareProtocol
@testable import ConformanceKit

/// The phone profiles (docs/phones.md): every behaviour has its evidence, the doc states each
/// value and source as the code does, and the behaviours read bytes the way their evidence says.
@Suite struct PhoneProfileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyBehaviourOfEveryProfileCitesItsEvidence() {
        for profile in PhoneProfile.all {
            for behaviour in PhoneProfile.Behaviour.allCases {
                let evidence = profile.evidence[behaviour]
                #expect(evidence != nil, "\(profile.name) \(behaviour) has no evidence")
                #expect((evidence?.source.count ?? 0) > 20, "\(profile.name) \(behaviour): say where it comes from")
            }
        }
        #expect(PhoneProfile.all.map(\.name) == [.iphone, .android, .reference])
    }

    /// docs/phones.md carries one table row per profile and behaviour, with the value and the
    /// evidence exactly as the code has them: the doc cannot drift from what `--phone` does.
    @Test func phonesDocStatesEveryValueAndItsEvidence() throws {
        let doc = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/phones.md"),
            encoding: .utf8
        )
        for profile in PhoneProfile.all {
            for behaviour in PhoneProfile.Behaviour.allCases {
                let evidence = try #require(profile.evidence[behaviour])
                let row =
                    "| `\(profile.name.rawValue)` | \(profile.value(of: behaviour)) | \(evidence.kind.rawValue): "
                    + "\(evidence.source) |"
                #expect(doc.contains(row), "docs/phones.md lacks the row\n\(row)")
            }
        }
    }

    /// Apple: values are read as at most 63 octets of UTF-8 and may be truncated
    /// (apple-peer-model.md 1.6). Hand-made record: "vendorName=" then 62 'a' and a 2-octet
    /// 'é' (C3 A9) that straddles the 63rd octet, so the cut falls before it.
    @Test func anIPhoneCutsALongValueAtACharacterBoundary() throws {
        let value = [UInt8](repeating: 0x61, count: 62) + [0xC3, 0xA9] + [0x62]
        let txt = DNSSDTXTRecord(strings: [Array("vendorName=".utf8) + value])
        #expect(txt.valueOctets(forKey: "VENDORNAME")?.count == 65)
        let read = PhoneProfile.iphone.longTXTValues.value(of: "vendorname", in: txt)
        #expect(read == String(repeating: "a", count: 62))
        #expect(PhoneProfile.android.longTXTValues.value(of: "vendorName", in: txt)?.utf8.count == 65)
        #expect(PhoneProfile.LongTXTValues.ignoreKey(over: 63).value(of: "vendorName", in: txt) == nil)
        // A value that fits is read whole by every phone.
        let short = DNSSDTXTRecord(strings: [Array("modelName=Drone".utf8)])
        for profile in PhoneProfile.all {
            #expect(profile.longTXTValues.value(of: "modelname", in: short) == "Drone")
        }
    }

    /// The descriptor matches what the phone reads: a vendor over 63 octets still matches its
    /// first 63 octets on an iPhone, and its whole value on Android.
    @Test func thePickerMatchesTheValueAsThePhoneReadsIt() throws {
        let long = String(repeating: "V", count: 70)
        let txt = DNSSDTXTRecord([(key: "vendorName", value: long), (key: "modelName", value: "M1")])
        let result = DiscoveryResult.fixture(txt: txt)
        let cut = DiscoveryDescriptor(serviceName: result.serviceName, vendorName: String(long.prefix(63)))
        let whole = DiscoveryDescriptor(serviceName: result.serviceName, vendorName: long)
        #expect((try? cut.evaluate(result, reading: PhoneProfile.iphone.longTXTValues).get()) != nil)
        #expect((try? whole.evaluate(result, reading: PhoneProfile.iphone.longTXTValues).get()) == nil)
        #expect((try? whole.evaluate(result, reading: PhoneProfile.android.longTXTValues).get()) != nil)
    }

    /// ESP-IDF's NIK descriptor (nan-wire-reference.md 3.9), laid out by hand: Key Information
    /// 0x12C8 (Key Type, Install, Ack, Secure, Encrypted Key Data; no MIC bit) and a 16-octet
    /// zero Key MIC field before Key Data Length. The bytes after the Key ID differ from the
    /// MIC-less form by exactly that field.
    @Test func theUnflaggedZeroMICFormCarriesAMICFieldWithoutTheMICBit() throws {
        let kek = [UInt8](repeating: 0x42, count: 16)
        let nik = [UInt8](repeating: 0x07, count: 16)
        func body(_ form: NIKDelivery.Form) throws -> [UInt8] {
            let attribute = try NIKDelivery.attribute(
                nik: nik,
                lifetimeSeconds: nil,
                nmKEK: kek,
                suite: .ncsPKPASN128,
                publishID: 3,
                form: form
            )
            var writer = WireWriter()
            guard case .sharedKeyDescriptor(let skda) = attribute else { return [] }
            skda.write(to: &writer)
            return writer.bytes
        }
        let unflagged = try body(.zeroMICUnflagged)
        let bare = try body(.noMIC)
        // Publish ID, Descriptor Type 2, then Key Information big-endian.
        #expect(Array(unflagged[0...3]) == [0x03, 0x02, 0x12, 0xC8])
        #expect(Array(bare[0...3]) == [0x03, 0x02, 0x10, 0x88])
        #expect(unflagged.count == bare.count + 16)
        // The fixed part ends at the Key ID (1 + 94 octets); the zero MIC follows it.
        let fixedEnd = 1 + RSNAKeyDescriptor.fixedLength
        let mic: [UInt8] = Array(unflagged[fixedEnd..<(fixedEnd + 16)])
        let afterMIC: [UInt8] = Array(unflagged[(fixedEnd + 16)...])
        let afterKeyID: [UInt8] = Array(bare[fixedEnd...])
        #expect(mic == [UInt8](repeating: 0, count: 16))
        #expect(afterMIC == afterKeyID)
        // Every form, with or without the Lifetime KDE, reads back (both directions of 3.9).
        for layout in PhoneProfile.NIKFollowUp.fieldLayouts {
            let attribute = try NIKDelivery.attribute(
                nik: nik,
                lifetimeSeconds: layout.lifetimeSeconds,
                nmKEK: kek,
                suite: .ncsPKPASN128,
                publishID: 1,
                form: layout.form
            )
            let received = try #require(NIKDelivery.receive([attribute], nmKEK: kek))
            let data = try received.get()
            #expect(data.nik == nik, "\(layout)")
            #expect(data.lifetime == layout.lifetimeSeconds, "\(layout)")
        }
    }

    /// A receiver that reads one layout only (the faults that play hostap's receiver and a
    /// MIC-bit reader) refuses exactly the layouts it cannot read.
    @Test func aOneLayoutReceiverRefusesTheOthers() throws {
        let kek = [UInt8](repeating: 0x42, count: 16)
        let nik = [UInt8](repeating: 0x07, count: 16)
        func accepted(
            _ form: NIKDelivery.Form,
            _ layout: @escaping (EAPOLKeyInformation) -> KeyMICLayout
        ) throws
            -> Bool
        {
            let attribute = try NIKDelivery.attribute(
                nik: nik,
                lifetimeSeconds: 100,
                nmKEK: kek,
                suite: .ncsPKPASN128,
                publishID: 1,
                form: form
            )
            guard case .success = NIKDelivery.receive([attribute], nmKEK: kek, layout: layout) else { return false }
            return true
        }
        let alwaysMIC: (EAPOLKeyInformation) -> KeyMICLayout = { _ in .octets16 }
        let byFlag: (EAPOLKeyInformation) -> KeyMICLayout = { $0.contains(.keyMIC) ? .octets16 : .absent }
        #expect(try accepted(.zeroMIC, alwaysMIC))
        #expect(try accepted(.zeroMICUnflagged, alwaysMIC))
        #expect(try !accepted(.noMIC, alwaysMIC))
        #expect(try accepted(.zeroMIC, byFlag))
        #expect(try accepted(.noMIC, byFlag))
        #expect(try !accepted(.zeroMICUnflagged, byFlag))
    }
}

extension DiscoveryResult {
    /// A matched result of `_drone-service._udp` carrying `txt`.
    fileprivate static func fixture(txt: DNSSDTXTRecord) -> DiscoveryResult {
        DiscoveryResult(
            subscribeInstanceID: 1,
            serviceName: "_drone-service._udp",
            serviceID: ServiceID(serviceName: "_drone-service._udp"),
            publisherAddress: MACAddress(0x02, 0xA0, 0, 0, 0, 1),
            publishInstanceID: 1,
            addressThree: MACAddress(0x50, 0x6F, 0x9A, 0x01, 0, 0),
            solicited: false,
            rssiDBm: -40,
            channel: .channel6,
            timestamp: .zero,
            serviceUpdateIndicator: nil,
            serviceSpecificInfo: ServiceSpecificInfo(bonjour: txt),
            descriptorServiceInfo: nil,
            matchingFilter: nil,
            deviceCapabilityExtension: nil,
            bootstrappingMethods: nil,
            identityResolution: nil,
            attributes: [],
            outcome: .matched
        )
    }
}

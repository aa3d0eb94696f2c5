import AwareCore
import Testing

@testable import AwareWire

private func bytes(_ hex: String) -> [UInt8] { HexString.decode(hex)! }

@Suite struct ServiceDescriptorDiscoveryAttributeTests {
    private let droneID = ServiceID(hex: "3425f17bda31")!

    @Test func minimalPublishGolden() throws {
        // 2.4: Service ID | Instance ID 1 | Requestor 0 | Service Control 0x00 (Publish, nothing optional)
        let wire = bytes("03 0900 3425f17bda31 01 00 00")
        let sda = ServiceDescriptorAttribute(serviceID: droneID, instanceID: 1, type: .publish)
        #expect(sda.attributeBytes == wire)
        #expect(try ServiceDescriptorAttribute(attributeBytes: wire) == sda)
    }

    @Test func everyOptionalFieldGolden() throws {
        // Control 0xFD = Subscribe (1) | MF 0x04 | SRF 0x08 | SI 0x10 | DRL 0x20 | BB 0x40 | reserved 0x80.
        // Binding bitmap 0x1234 LE; MF len 6: 02 61 62 | 00 | 01 63; SRF len 7: control 0x02 + one address;
        // Service Info len 2: de ad. Body = 9 + 2 + 7 + 8 + 3 = 29 (0x1d).
        let wire = bytes("03 1d00 3425f17bda31 05 07 fd 3412 06 026162000163 07 02 02a000000001 02 dead")
        var sda = ServiceDescriptorAttribute(
            serviceID: droneID,
            instanceID: 5,
            requestorInstanceID: 7,
            type: .subscribe,
            discoveryRangeLimited: true,
            bindingBitmap: 0x1234,
            matchingFilter: MatchingFilter(items: [[0x61, 0x62], [], [0x63]]),
            serviceResponseFilter: ServiceResponseFilter(
                include: true,
                addressSet: .addressList([MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)])
            ),
            serviceInfo: [0xDE, 0xAD]
        )
        sda.serviceControl.reservedBit7 = true
        #expect(sda.serviceControl.rawValue == 0xFD)
        #expect(sda.attributeBytes == wire)

        let parsed = try ServiceDescriptorAttribute(attributeBytes: wire)
        #expect(parsed == sda)
        #expect(parsed.type == .subscribe)
        #expect(parsed.discoveryRangeLimited)
        #expect(parsed.serviceControl.reservedBit7)
        #expect(parsed.bindingBitmap == 0x1234)
        #expect(parsed.matchingFilter?.items == [[0x61, 0x62], [], [0x63]])
        #expect(parsed.serviceResponseFilter?.matches(MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)) == true)
        #expect(parsed.serviceInfo == [0xDE, 0xAD])
    }

    @Test func presenceBitsFollowTheOptionalFields() throws {
        var sda = ServiceDescriptorAttribute(serviceID: droneID, instanceID: 1, type: .followUp)
        // Claiming a matching filter through the control octet does not invent one.
        sda.serviceControl = ServiceControl(rawValue: 0x06)
        #expect(sda.serviceControl.rawValue == 0x02)
        sda.serviceInfo = []
        // Follow-up (2) | Service Info present (0x10), empty Service Info: 00.
        #expect(sda.attributeBytes == bytes("03 0a00 3425f17bda31 01 00 12 00"))
        #expect(try ServiceDescriptorAttribute(attributeBytes: sda.attributeBytes) == sda)
    }

    @Test func reservedServiceControlTypeRoundTrips() throws {
        let wire = bytes("03 0900 3425f17bda31 01 02 03")
        let sda = try ServiceDescriptorAttribute(attributeBytes: wire)
        #expect(sda.type == .reserved)
        #expect(sda.attributeBytes == wire)
    }

    @Test func truncatedServiceID() {
        #expect(
            throws: WireError(
                .truncated(need: 6, have: 5),
                structure: "Service Descriptor attribute",
                field: "Service ID",
                offset: 3
            )
        ) {
            _ = try ServiceDescriptorAttribute(attributeBytes: bytes("03 0500 3425f17bda"))
        }
    }

    @Test func matchingFilterLengthPastTheEnd() {
        // MF Length 5 with one octet left in the body.
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 5, actual: 1),
                structure: "Service Descriptor attribute",
                field: "Matching Filter Length",
                offset: 13
            )
        ) {
            _ = try ServiceDescriptorAttribute(attributeBytes: bytes("03 0b00 3425f17bda31 01 00 04 05 00"))
        }
    }

    @Test func matchingFilterItemPastTheEnd() {
        // MF Length 3: item 01 aa, then an item of length 5 with nothing left.
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 5, actual: 0),
                structure: "Service Descriptor attribute",
                field: "Matching Filter Item",
                offset: 16
            )
        ) {
            _ = try ServiceDescriptorAttribute(attributeBytes: bytes("03 0d00 3425f17bda31 01 00 04 03 01aa05"))
        }
    }

    @Test func srfAddressListNotAMultipleOfSix() {
        // SRF Length 4: control 0x00 + 3 octets.
        #expect(
            throws: WireError(
                .invalidValue("an address list of 3 octets is not a multiple of 6"),
                structure: "Service Descriptor attribute",
                field: "Address Set",
                offset: 14
            )
        ) {
            _ = try ServiceDescriptorAttribute(attributeBytes: bytes("03 0e00 3425f17bda31 01 00 08 04 00 020304"))
        }
    }

    @Test func trailingOctetsAfterTheLastField() {
        #expect(
            throws: WireError(.trailingOctets(count: 1), structure: "Service Descriptor attribute", offset: 12)
        ) {
            _ = try ServiceDescriptorAttribute(attributeBytes: bytes("03 0a00 3425f17bda31 01 00 00 ff"))
        }
    }

    @Test func describesEveryControlBit() throws {
        let sda = try ServiceDescriptorAttribute(attributeBytes: bytes("03 0c00 3425f17bda31 01 00 50 3412 00"))
        let fields = sda.decodedFields
        #expect(
            fields.map(\.key) == [
                "serviceID", "instanceID", "requestorInstanceID", "serviceControl", "serviceControlType",
                "matchingFilterPresent", "serviceResponseFilterPresent", "serviceInfoPresent",
                "discoveryRangeLimited", "bindingBitmapPresent", "bindingBitmap", "serviceInfo",
            ]
        )
        #expect(fields[3].value == .bits(0x50, digits: 2))
        #expect(fields[4].value == .named(0, "Publish"))
        #expect(fields[9].value == .flag(true))
    }
}

@Suite struct ServiceDescriptorExtensionDiscoveryAttributeTests {
    @Test func everyFieldGolden() throws {
        // Control 0x87ff: bits 0-10 and reserved bit 15. Range limit 100 / 200, SUI 0x2a,
        // Service Info len 9 = OUI 50 6f 9a | type 2 (Generic) | GSP 00 0200 511f.
        let wire = bytes("0e 1300 03 ff87 6400 c800 2a 0900 506f9a 02 000200511f")
        let sdea = ServiceDescriptorExtensionAttribute(
            instanceID: 3,
            control: [
                .fsdRequired, .fsdWithGAS, .dataPathRequired, .dataPathType, .multicastType, .qosRequired,
                .securityRequired, .rangingRequired, .gtkRequired, ServiceDescriptorExtensionControl(rawValue: 0x8000),
            ],
            rangeLimit: ServiceRangeLimit(ingress: 100, egress: 200),
            serviceUpdateIndicator: 0x2A,
            serviceInfo: .structured(
                ServiceSpecificInfo(protocolType: .generic, info: [0x00, 0x02, 0x00, 0x51, 0x1F])
            )
        )
        #expect(sdea.attributeBytes == wire)
        let parsed = try ServiceDescriptorExtensionAttribute(attributeBytes: wire)
        #expect(parsed == sdea)
        #expect(parsed.control.rawValue == 0x87FF)
        #expect(parsed.control.contains(.rangeLimitPresent))
        #expect(parsed.control.contains(.serviceUpdateIndicatorPresent))
        #expect(parsed.control.intersection(.reserved).rawValue == 0x8000)
        #expect(parsed.serviceInfo?.serviceSpecificInfo?.protocolType == .generic)
    }

    @Test func shortServiceInfoIsKeptUnstructured() throws {
        // Service Info len 2 (aa bb): shorter than OUI + type.
        let wire = bytes("0e 0700 01 0000 0200 aabb")
        let sdea = try ServiceDescriptorExtensionAttribute(attributeBytes: wire)
        #expect(sdea.serviceInfo == .unstructured([0xAA, 0xBB]))
        #expect(sdea.attributeBytes == wire)
        let empty = bytes("0e 0500 01 0000 0000")
        #expect(try ServiceDescriptorExtensionAttribute(attributeBytes: empty).serviceInfo == .unstructured([]))
    }

    @Test func presenceBitsFollowTheOptionalFields() {
        var sdea = ServiceDescriptorExtensionAttribute(instanceID: 1, control: [.rangeLimitPresent, .fsdRequired])
        #expect(sdea.control == [.fsdRequired])
        sdea.serviceUpdateIndicator = 7
        #expect(sdea.attributeBytes == bytes("0e 0400 01 0102 07"))
    }

    @Test func serviceInfoLengthOctetMissing() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "Service Descriptor Extension attribute",
                field: "Service Info Length",
                offset: 6
            )
        ) {
            _ = try ServiceDescriptorExtensionAttribute(attributeBytes: bytes("0e 0400 01 0000 05"))
        }
    }

    @Test func serviceInfoLengthPastTheEnd() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 5, actual: 1),
                structure: "Service Descriptor Extension attribute",
                field: "Service Info Length",
                offset: 8
            )
        ) {
            _ = try ServiceDescriptorExtensionAttribute(attributeBytes: bytes("0e 0600 01 0000 0500 aa"))
        }
    }

    @Test func rangeLimitTruncated() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 0),
                structure: "Service Descriptor Extension attribute",
                field: "Range Limit Egress",
                offset: 8
            )
        ) {
            _ = try ServiceDescriptorExtensionAttribute(attributeBytes: bytes("0e 0500 01 0001 6400"))
        }
    }

    @Test func describesEveryControlBit() {
        let sdea = ServiceDescriptorExtensionAttribute(instanceID: 1, control: [.gtkRequired, .securityRequired])
        let fields = Dictionary(uniqueKeysWithValues: sdea.decodedFields.map { ($0.key, $0.value) })
        #expect(fields["control"] == .bits(0x0440, digits: 4))
        #expect(fields["gtkRequired"] == .flag(true))
        #expect(fields["securityRequired"] == .flag(true))
        #expect(fields["fsdRequired"] == .flag(false))
        #expect(fields["dataPathType"] == .named(0, "Unicast"))
        #expect(fields.count == 14)
    }
}

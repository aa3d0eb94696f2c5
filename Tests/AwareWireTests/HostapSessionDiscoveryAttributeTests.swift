import AwareCore
import Testing

@testable import AwareWire

private func bytes(_ hex: String) -> [UInt8] { HexString.decode(hex)! }

/// Frame 1 of Fixtures/hostap-session-A/session.pcap (the accessory's unsolicited
/// Publish), attributes from frame offset 30, extracted with python3; expected values from
/// transcript.json (frame 1 and parameters).
@Suite struct HostapSessionDiscoveryAttributeTests {
    static let frame1Attributes = bytes(
        "0309003425f17bda310100000e4d000100004800506f9a011676656e646f724e616d653d4578616d706c6520496e63176d"
            + "6f64656c4e616d653d4578616d706c65204d6f64656c1470616972696e674e616d653d4d792044726f6e652c05000000"
            + "0002000f09000009000411110a0008121c000230000e00e111180004fefffeff11512000000700fa0711512000002a02"
            + "0000032b110000593bf80fbd075b8847180ccf3e61bada"
    )
    static let sda = bytes("0309003425f17bda31010000")
    static let sdea = bytes(
        "0e4d000100004800506f9a011676656e646f724e616d653d4578616d706c6520496e63176d6f64656c4e616d653d4578"
            + "616d706c65204d6f64656c1470616972696e674e616d653d4d792044726f6e65"
    )
    static let npba = bytes("2c05000000000200")
    static let deviceCapability = bytes("0f09000009000411110a0008")
    static let dcea = bytes("2a02000003")
    static let nira = bytes("2b110000593bf80fbd075b8847180ccf3e61bada")

    @Test func pastedAttributesAreFrame1InOrder() throws {
        var reader = WireReader(Self.frame1Attributes, structure: "SDF")
        let attributes = try NANAttribute.readList(from: &reader)
        #expect(attributes.map(\.id.rawValue) == [0x03, 0x0E, 0x2C, 0x0F, 0x12, 0x2A, 0x2B])
        let availability = bytes("121c000230000e00e111180004fefffeff11512000000700fa071151200000")
        #expect(
            Self.frame1Attributes
                == Self.sda + Self.sdea + Self.npba + Self.deviceCapability + availability + Self.dcea + Self.nira
        )
    }

    @Test func serviceDescriptor() throws {
        let sda = try ServiceDescriptorAttribute(attributeBytes: Self.sda)
        #expect(sda.serviceID.description == "3425f17bda31")
        #expect(sda.serviceID == ServiceID(serviceName: "_drone-service._udp"))
        #expect(sda.instanceID == 1)
        #expect(sda.requestorInstanceID == 0)
        #expect(sda.type == .publish)
        #expect(sda.serviceInfo == nil)
        #expect(sda.attributeBytes == Self.sda)
    }

    @Test func serviceDescriptorExtensionCarriesTheTXTRecord() throws {
        let sdea = try ServiceDescriptorExtensionAttribute(attributeBytes: Self.sdea)
        #expect(sdea.instanceID == 1)
        #expect(sdea.control == [])
        let info = try #require(sdea.serviceInfo?.serviceSpecificInfo)
        #expect(info.oui == [0x50, 0x6F, 0x9A])
        #expect(info.protocolType == .bonjour)
        #expect(
            HexString.encode(info.info)
                == "1676656e646f724e616d653d4578616d706c6520496e63176d6f64656c4e616d653d4578616d706c65204d6f6465"
                + "6c1470616972696e674e616d653d4d792044726f6e65"
        )
        let txt = try #require(info.txtRecord)
        #expect(txt["vendorName"] == "Example Inc")
        #expect(txt["modelName"] == "Example Model")
        #expect(txt["pairingName"] == "My Drone")
        #expect(sdea.attributeBytes == Self.sdea)

        let rebuilt = ServiceDescriptorExtensionAttribute(
            instanceID: 1,
            serviceInfo: .structured(
                ServiceSpecificInfo(
                    bonjour: DNSSDTXTRecord([
                        (key: "vendorName", value: "Example Inc"),
                        (key: "modelName", value: "Example Model"),
                        (key: "pairingName", value: "My Drone"),
                    ])
                )
            )
        )
        #expect(rebuilt.attributeBytes == Self.sdea)
    }

    @Test func pairingBootstrappingAdvertise() throws {
        let npba = try PairingBootstrappingAttribute(attributeBytes: Self.npba)
        #expect(npba.dialogToken == 0)
        #expect(npba.type == .advertise)
        #expect(npba.status == .accepted)
        #expect(npba.reasonCode == 0)
        #expect(npba.methods.rawValue == 0x0002)
        #expect(npba.attributeBytes == Self.npba)
    }

    @Test func deviceCapability() throws {
        // tshark: 2.4 GHz DW 1, 5 GHz DW 1, band 2.4 GHz, op mode 0x11, 1 TX / 1 RX, 10 µs, NDPE support.
        let capability = try DeviceCapabilityAttribute(attributeBytes: Self.deviceCapability)
        #expect(capability.mapID == 0)
        #expect(capability.committedDW24GHz == 1)
        #expect(capability.committedDW5GHz == 1)
        #expect(capability.supportedBands == 0x04)
        #expect(capability.operationMode == 0x11)
        #expect(capability.transmitAntennas == 1 && capability.receiveAntennas == 1)
        #expect(capability.maxChannelSwitchTime == 10)
        #expect(capability.ndpeAttributeSupported)
        #expect(capability.attributeBytes == Self.deviceCapability)
    }

    @Test func deviceCapabilityExtension() throws {
        // README: pairing setup and NPK caching enabled on both devices.
        let dcea = try DeviceCapabilityExtensionAttribute(attributeBytes: Self.dcea)
        #expect(dcea.pairingSetupEnabled)
        #expect(dcea.npkNIKCachingEnabled)
        #expect(dcea.extra.isEmpty)
        #expect(dcea.attributeBytes == Self.dcea)
    }

    @Test func identityResolution() throws {
        // parameters.accessory.nira: nonce 593bf80fbd075b88, tag 47180ccf3e61bada.
        let nira = try IdentityResolutionAttribute(attributeBytes: Self.nira)
        #expect(nira.cipherVersion == 0)
        #expect(HexString.encode(nira.nonce) == "593bf80fbd075b88")
        #expect(HexString.encode(nira.tag) == "47180ccf3e61bada")
        #expect(nira.attributeBytes == Self.nira)
    }

    @Test func bootstrappingExchangeOfFrames2To13() throws {
        // NPBA attributes of frames 2, 4, 5, 12 and 13, against transcript.json "bootstrapping".
        let frame2 = try PairingBootstrappingAttribute(attributeBytes: bytes("2c05000000002000"))
        #expect(frame2.type == .advertise && frame2.methods == .pinCodeKeypad)
        let frame4 = try PairingBootstrappingAttribute(attributeBytes: bytes("2c05000101002000"))
        #expect(frame4.dialogToken == 1 && frame4.type == .request && frame4.status == .accepted)
        #expect(frame4.methods == .pinCodeKeypad)
        let frame5 = try PairingBootstrappingAttribute(attributeBytes: bytes("2c0c00012200c800041b1226030000"))
        #expect(frame5.type == .response && frame5.status == .comeback)
        #expect(frame5.comebackAfter == 200 && frame5.cookie == [0x1B, 0x12, 0x26, 0x03] && frame5.methods == [])
        let frame12 = try PairingBootstrappingAttribute(attributeBytes: bytes("2c0a00012100041b1226032000"))
        #expect(frame12.type == .request && frame12.status == .comeback && frame12.comebackAfter == nil)
        #expect(frame12.cookie == [0x1B, 0x12, 0x26, 0x03] && frame12.methods == .pinCodeKeypad)
        let frame13 = try PairingBootstrappingAttribute(attributeBytes: bytes("2c05000102000200"))
        #expect(frame13.type == .response && frame13.status == .accepted && frame13.methods == .pinCodeDisplay)
        #expect(frame5.attributeBytes == bytes("2c0c00012200c800041b1226030000"))
        #expect(frame12.attributeBytes == bytes("2c0a00012100041b1226032000"))
    }

    @Test func subscribeAndFollowUpServiceDescriptors() throws {
        // Frame 2: Subscribe (control 0x01), instance 1; frame 4: Follow-up (0x02), instance 1 -> publish ID 1.
        let subscribe = try ServiceDescriptorAttribute(attributeBytes: bytes("0309003425f17bda31010001"))
        #expect(subscribe.type == .subscribe && subscribe.requestorInstanceID == 0)
        let followUp = try ServiceDescriptorAttribute(attributeBytes: bytes("0309003425f17bda31010102"))
        #expect(followUp.type == .followUp && followUp.requestorInstanceID == 1)
    }
}

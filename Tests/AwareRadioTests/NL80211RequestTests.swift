import AwareCore
import AwareTestSupport
import AwareWire
import Testing

@testable import AwareRadio

/// Every request the radio sends, compared octet for octet with messages laid out by hand from
/// `linux/netlink.h` (nlmsghdr: u32 len, u16 type, u16 flags, u32 seq, u32 pid; genlmsghdr:
/// u8 cmd, u8 version, u16 reserved; nlattr: u16 len, u16 type, payload padded to 4) and the
/// attribute numbers of `linux/nl80211.h`. Family 0x1c as in the libnl probe of
/// platform-notes.md 2.2; flags 0x0005 = NLM_F_REQUEST | NLM_F_ACK.
@Suite struct NL80211RequestTests {
    let family: UInt16 = 0x1c
    let wdev = NL80211Device.wirelessDevice(0x1_0000_0001)
    let netdev = NL80211Device.interfaceIndex(3)

    @Test func getInterfaceNamesTheIfindex() throws {
        let request = NL80211Request.getInterface(familyID: family, interfaceIndex: 3)
        #expect(
            try request.message.serialized()
                == hex("1c000000 1c000500 00000000 00000000 05000000 08000300 03000000")
        )
        #expect(!request.isDump)
    }

    @Test func getWiphyIsASplitDumpForOneWiphy() throws {
        let request = NL80211Request.getWiphy(familyID: family, wiphy: 0)
        // flags 0x0301 = NLM_F_REQUEST | NLM_F_DUMP; WIPHY u32 0; SPLIT_WIPHY_DUMP (174 = 0xae) flag.
        #expect(
            try request.message.serialized()
                == hex("20000000 1c000103 00000000 00000000 01000000 08000100 00000000 0400ae00")
        )
        #expect(request.isDump)
    }

    @Test func registerFrameCarriesTheFrameTypeAndTheMatch() throws {
        let sdf = NL80211Request.registerFrame(familyID: family, device: netdev, registration: .serviceDiscovery)
        // cmd 58; FRAME_TYPE (101) u16 0x00d0 padded to 8; FRAME_MATCH (91) 6 octets padded to 12.
        #expect(
            try sdf.message.serialized()
                == hex(
                    "30000000 1c000500 00000000 00000000 3a000000 08000300 03000000 06006500 d0000000"
                        + "0a005b00 0409506f 9a130000"
                )
        )
        let pasn = NL80211Request.registerFrame(familyID: family, device: wdev, registration: .pasnAuthentication)
        #expect(
            try pasn.message.serialized()
                == hex(
                    "30000000 1c000500 00000000 00000000 3a000000 0c009900 01000000 01000000"
                        + "06006500 b0000000 06005b00 07000000"
                )
        )
        #expect(NL80211FrameRegistration.nan.map(\.match.first) == [0x04, 0x04, 0x09, 0x07])
    }

    @Test func frameGoesOffChannelOnlyWithAFrequency() throws {
        let usd = NL80211Request.frame(familyID: family, device: wdev, frame: hex("d0000000 01"), frequencyMHz: 2437)
        // cmd 59; WDEV u64; WIPHY_FREQ (38) 2437 = 0x985; OFFCHANNEL_TX_OK (108) flag; FRAME (51) 5 octets.
        #expect(
            try usd.message.serialized()
                == hex(
                    "38000000 1c000500 00000000 00000000 3b000000 0c009900 01000000 01000000"
                        + "08002600 85090000 04006c00 09003300 d0000000 01000000"
                )
        )
        let nan = NL80211Request.frame(familyID: family, device: wdev, frame: hex("d0000000 01"), frequencyMHz: nil)
        #expect(
            try nan.message.serialized()
                == hex(
                    "2c000000 1c000500 00000000 00000000 3b000000 0c009900 01000000 01000000 09003300 d0000000 01000000"
                )
        )
        let waiting = NL80211Request.frame(
            familyID: family,
            device: netdev,
            frame: [0xd0],
            frequencyMHz: 5745,
            waitMilliseconds: 100
        )
        #expect(waiting.message.attributes.map(\.type) == [3, 38, 108, 87, 51])
        #expect(try waiting.message.attribute(87)?.u32Value() == 100)
    }

    @Test func remainOnChannelAndItsCancel() throws {
        let listen = NL80211Request.remainOnChannel(
            familyID: family,
            device: netdev,
            frequencyMHz: 2437,
            durationMilliseconds: 5000
        )
        // cmd 55; DURATION (87) 5000 = 0x1388.
        #expect(
            try listen.message.serialized()
                == hex(
                    "2c000000 1c000500 00000000 00000000 37000000 08000300 03000000 08002600 85090000 08005700 88130000"
                )
        )
        let cancel = NL80211Request.cancelRemainOnChannel(familyID: family, device: netdev, cookie: 5)
        // cmd 56; COOKIE (88) u64.
        #expect(
            try cancel.message.serialized()
                == hex("28000000 1c000500 00000000 00000000 38000000 08000300 03000000 0c005800 05000000 00000000")
        )
    }

    @Test func newNANInterfaceIsOwnedByTheSocket() throws {
        let request = NL80211Request.newNANInterface(familyID: family, wiphy: 0, name: "aware3")
        // cmd 7; WIPHY 0; IFTYPE (5) = 12 (NAN); IFNAME (4) "aware3\0" padded to 12; SOCKET_OWNER (204) flag.
        #expect(
            try request.message.serialized()
                == hex(
                    "34000000 1c000500 00000000 00000000 07000000 08000100 00000000 08000500 0c000000"
                        + "0b000400 61776172 65330000 0400cc00"
                )
        )
    }

    @Test func startAndStopNAN() throws {
        let start = try NL80211Request.startNAN(familyID: family, device: wdev, masterPreference: 128, bands: 0x3)
        // cmd 115; NAN_MASTER_PREF (238) u8 128; BANDS (239) u32 3 (2.4 + 5 GHz).
        #expect(
            try start.message.serialized()
                == hex(
                    "30000000 1c000500 00000000 00000000 73000000 0c009900 01000000 01000000"
                        + "0500ee00 80000000 0800ef00 03000000"
                )
        )
        #expect(
            try NL80211Request.stopNAN(familyID: family, device: wdev).message.serialized()
                == hex("20000000 1c000500 00000000 00000000 74000000 0c009900 01000000 01000000")
        )
        for reserved: UInt8 in [0, 1, 255] {
            #expect(
                throws: RadioError.invalidRequest(
                    "NAN master preference \(reserved) is outside 2...254 (1 and 255 are reserved)"
                )
            ) { try NL80211Request.startNAN(familyID: family, device: wdev, masterPreference: reserved, bands: 0) }
        }
    }

    /// The publish function equals the libnl C probe's ADD_NAN_FUNCTION of platform-notes.md 2.2
    /// (an independent dump) once the flags are set as the probe's were (0: never sent).
    @Test func addNANFunctionMatchesTheLibnlProbe() throws {
        let function = NL80211NANFunction(
            kind: .publish(.unsolicited, broadcast: true),
            serviceID: hex("112233445566"),
            ttl: 100
        )
        let request = try NL80211Request.addNANFunction(familyID: family, device: wdev, function: function)
        #expect(request.message.flags == 0x0005)
        var unsent = request.message
        unsent.flags = 0
        #expect(
            try unsent.serialized()
                == hex(
                    "4c000000 1c000000 00000000 00000000 75000000 0c009900 01000000 01000000 2c00f080"
                        + "05000100 00000000 0a000200 11223344 55660000 05000300 02000000 04000400 08000a00 64000000"
                )
        )
    }

    @Test func subscribeAndFollowUpFunctions() throws {
        let subscribe = NL80211NANFunction(
            kind: .subscribe(active: true),
            serviceID: hex("112233445566"),
            serviceInfo: Array("ab".utf8)
        )
        // NAN_FUNC (240 | NLA_F_NESTED): TYPE 1, SERVICE_ID, SUBSCRIBE_ACTIVE (5), SERVICE_INFO (11) "ab".
        let subscribeBytes = try GenericNetlinkMessage(
            familyID: family,
            command: 117,
            attributes: [subscribe.attribute()]
        )
        .serialized()
        #expect(
            Array(subscribeBytes.dropFirst(20))
                == hex("2400f080 05000100 01000000 0a000200 11223344 55660000 04000500 06000b00 61620000")
        )
        let followUp = NL80211NANFunction(
            kind: .followUp(instanceID: 3, requestorInstanceID: 9, destination: MACAddress(2, 0, 0, 0, 0, 0x0a)),
            serviceID: hex("112233445566")
        )
        let followUpBytes = try GenericNetlinkMessage(
            familyID: family,
            command: 117,
            attributes: [followUp.attribute()]
        )
        .serialized()
        // TYPE 2; FOLLOW_UP_ID (6) 3, the SDA's own Instance ID; FOLLOW_UP_REQ_ID (7) 9, the
        // peer's; FOLLOW_UP_DEST (8) the MAC.
        #expect(
            Array(followUpBytes.dropFirst(20))
                == hex(
                    "3400f080 05000100 02000000 0a000200 11223344 55660000 05000600 03000000 05000700 09000000"
                        + "0a000800 02000000 000a0000"
                )
        )
        let delete = NL80211Request.deleteNANFunction(familyID: family, device: wdev, cookie: 7)
        #expect(delete.message.command == 118)
        #expect(try delete.message.attribute(88)?.u64Value() == 7)
    }

    @Test func refusesFunctionsTheKernelWouldRefuse() {
        #expect(throws: RadioError.attributeSize(type: 2, expected: 6, actual: 5)) {
            try NL80211NANFunction(kind: .subscribe(active: false), serviceID: hex("1122334455")).attribute()
        }
        #expect(throws: RadioError.attributeSize(type: 11, expected: 255, actual: 256)) {
            try NL80211NANFunction(
                kind: .subscribe(active: false),
                serviceID: hex("112233445566"),
                serviceInfo: [UInt8](repeating: 1, count: 256)
            )
            .attribute()
        }
    }
}

@Suite struct NL80211AirSpecifierTests {
    @Test func parsesNL80211InterfaceNames() {
        #expect(AirSpecifier(argument: "nl80211:wlan0") == .nl80211(interface: "wlan0"))
        #expect(AirSpecifier(argument: "nl80211:wlan0")?.interfaceName == "wlan0")
        #expect(AirSpecifier(argument: "nl80211:wlan0")?.socketPath == nil)
        #expect(AirSpecifier(argument: "nl80211:wlan0")?.description == "nl80211:wlan0")
        #expect(AirSpecifier(argument: "nl80211:abcdefghijklmno") == .nl80211(interface: "abcdefghijklmno"))
        for bad in [
            "nl80211", "nl80211:", "nl80211:abcdefghijklmnop", "nl80211:a/b", "nl80211:a b", "nl80211:a:b",
            "nl80211:..", "nl80211:.",
        ] {
            #expect(AirSpecifier(argument: bad) == nil, "\(bad)")
        }
        #expect(AirSpecifier(argument: "socket")?.interfaceName == nil)
    }
}

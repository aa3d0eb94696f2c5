import AwareCore
import AwareTestSupport
import AwareWire
import Testing

@testable import AwareRadio

/// Kernel replies and events built by hand in the layout `net/wireless/nl80211.c` sends them
/// (nests opened with `nla_nest_start_noflag`, so without NLA_F_NESTED), parsed back into
/// values.
enum KernelMessages {
    /// NEW_INTERFACE (7) for wlan0: IFINDEX 3, IFNAME "wlan0\0", WIPHY 0, IFTYPE 2 (station),
    /// WDEV 1, MAC 02:00:00:00:00:01.
    static let newInterface = hex(
        "50000000 1c000000 00000000 00000000 07000000 08000300 03000000 0a000400 776c616e 30000000"
            + "08000100 00000000 08000500 02000000 0c009900 01000000 00000000 0a000600 02000000 00010000"
    )

    /// NEW_WIPHY (3), first part of a split dump (NLM_F_MULTI, seq 9): WIPHY 0, WIPHY_NAME
    /// "phy0", SUPPORTED_IFTYPES {station (2), P2P device (10), NAN (12)}, SUPPORTED_COMMANDS
    /// {REMAIN_ON_CHANNEL (55), FRAME (59)}.
    static let wiphyPart1 = hex(
        "4c000000 1c000200 09000000 00000000 03000000 08000100 00000000 09000200 70687930 00000000"
            + "10002000 04000200 04000a00 04000c00 14003200 08000100 37000000 08000200 3b000000"
    )

    /// Second part: EXT_FEATURES (217) with bit 63 (SECURE_NAN) set, TX and RX_FRAME_TYPES
    /// (99, 100) {station: Action 0x00d0, Authentication 0x00b0}, MAX_REMAIN_ON_CHANNEL_DURATION
    /// (111) 5000, NAN_CAPABILITIES (344) {USERSPACE_DE (2)}.
    static let wiphyPart2 = hex(
        "68000000 1c000200 09000000 00000000 03000000 08000100 00000000 0c00d900 00000000 00000080"
            + "18006300 14000200 06006500 d0000000 06006500 b0000000"
            + "18006400 14000200 06006500 d0000000 06006500 b0000000 08006f00 88130000 08005801 04000200"
    )

    /// NLMSG_DONE (3) ending the dump of seq 9.
    static let done = hex("14000000 03000200 09000000 00000000 00000000")

    /// A Public Action SDF: broadcast, from 02:00:00:00:00:02, A3 = NAN cluster ID
    /// 51:6f:9a:01:00:00, body 04 09 50 6f 9a 13 and a publish SDA (service ID 11:22:33:44:55:66,
    /// instance 1).
    static let sdf = hex(
        "d0000000 ffffffff ffff0200 00000002 516f9a01 00001000 0409506f 9a130309 00112233 44556601 0000"
    )

    /// FRAME (59) event: WIPHY 0, IFINDEX 3, WDEV 1, WIPHY_FREQ 2437, RX_SIGNAL_DBM (151) -60 as
    /// u32 0xffffffc4, FRAME (51) = the SDF (42 octets, padded by 2).
    static let frameEvent = hex(
        "70000000 1c000000 00000000 00000000 3b000000 08000100 00000000 08000300 03000000"
            + "0c009900 01000000 00000000 08002600 85090000 08009700 c4ffffff 2e003300"
            + "d0000000 ffffffff ffff0200 00000002 516f9a01 00001000 0409506f 9a130309 00112233 44556601 00000000"
    )

    /// FRAME_TX_STATUS (60): WIPHY, IFINDEX, FRAME, COOKIE (88) 0x1122334455667788, ACK (92).
    static let transmitStatus = hex(
        "64000000 1c000000 00000000 00000000 3c000000 08000100 00000000 08000300 03000000 2e003300"
            + "d0000000 ffffffff ffff0200 00000002 516f9a01 00001000 0409506f 9a130309 00112233 44556601 00000000"
            + "0c005800 88776655 44332211 04005c00"
    )

    /// NAN_MATCH (120): WIPHY 0, WDEV 0x100000001, COOKIE 7, MAC 02:00:00:00:00:0a, NAN_MATCH
    /// (241) {LOCAL {TYPE 1, INSTANCE_ID 3}, PEER {TYPE 1, INSTANCE_ID 9, SERVICE_INFO "hi"}}.
    static let nanMatch = hex(
        "74000000 1c000000 00000000 00000000 78000000 08000100 00000000 0c009900 01000000 01000000"
            + "0c005800 07000000 00000000 0a000600 02000000 000a0000 3400f100 14000100 05000100 01000000"
            + "05000f00 03000000 1c000200 05000100 01000000 05000f00 09000000 06000b00 68690000"
    )

    /// DEL_NAN_FUNCTION (118) as the termination event: COOKIE 7, NAN_FUNC {INSTANCE_ID 3,
    /// TERM_REASON 1 (TTL expired)}.
    static let nanTerminated = hex(
        "34000000 1c000000 00000000 00000000 76000000 0c005800 07000000 00000000"
            + "1400f000 05000f00 03000000 05001000 01000000"
    )
}

@Suite struct NL80211ReplyTests {
    /// The controller's NEWFAMILY (1) reply for nl80211 as `ctrl_fill_info` lays it out, written
    /// from `linux/genetlink.h`: FAMILY_NAME (2) "nl80211\0", FAMILY_ID (1) 0x1c (a u16,
    /// padded), MCAST_GROUPS (7) holding one unflagged nest per group, numbered 1, 2, each with
    /// MCAST_GRP_ID (2) then MCAST_GRP_NAME (1): "mlme" 8 and "nan" 10, the IDs a Linux 6.12
    /// kernel with mac80211_hwsim gave them.
    @Test func readsAFamilyAndItsMulticastGroups() throws {
        let reply = hex(
            "58000000 10000000 00000000 00000000 01020000"
                + "0c000200 6e6c3830 32313100" + "06000100 1c000000"
                + "30000700"
                + "18000100 08000200 08000000 09000100 6d6c6d65 00000000"
                + "14000200 08000200 0a000000 08000100 6e616e00"
        )
        let family = try GenericNetlinkFamily(reply: GenericNetlinkMessage(parsing: reply))
        #expect(family == GenericNetlinkFamily(name: "nl80211", id: 0x1c, multicastGroups: ["mlme": 8, "nan": 10]))

        // What the radio sends for it: GETFAMILY (3), version 1, request + ACK, FAMILY_NAME.
        #expect(
            try GenericNetlinkFamily.request(name: "nl80211").message.serialized()
                == hex("20000000 10000500 00000000 00000000 03010000 0c000200 6e6c3830 32313100")
        )

        // A group without its ID, and a reply that is not NEWFAMILY, are typed errors.
        let noID = hex(
            "38000000 10000000 00000000 00000000 01020000"
                + "06000100 1c000000" + "1c000700" + "18000100 08000300 08000000 09000100 6d6c6d65 00000000"
        )
        #expect(throws: RadioError.missingAttribute(command: 1, attribute: 2)) {
            try GenericNetlinkFamily(reply: GenericNetlinkMessage(parsing: noID))
        }
        #expect(throws: RadioError.unexpectedCommand(expected: 1, actual: 7)) {
            try GenericNetlinkFamily(reply: GenericNetlinkMessage(parsing: KernelMessages.newInterface))
        }
    }

    @Test func parsesTheInterfaceReply() throws {
        let interface = try NL80211Interface(reply: GenericNetlinkMessage(parsing: KernelMessages.newInterface))
        #expect(interface.interfaceIndex == 3)
        #expect(interface.name == "wlan0")
        #expect(interface.wiphy == 0)
        #expect(interface.interfaceType == NL80211Constants.InterfaceType.station.rawValue)
        #expect(interface.typeName == "station")
        #expect(interface.wdev == 1)
        #expect(interface.address == MACAddress(2, 0, 0, 0, 0, 1))
        #expect(interface.device == .interfaceIndex(3))
    }

    @Test func mergesASplitWiphyDumpFromOneDatagram() throws {
        let datagram = KernelMessages.wiphyPart1 + KernelMessages.wiphyPart2 + KernelMessages.done
        let messages = try NetlinkReceivedMessage.messages(in: datagram)
        #expect(messages.count == 3)
        #expect(messages.last == .done(sequence: 9))
        let parts = messages.compactMap { if case .generic(let message) = $0 { message } else { nil } }
        let wiphy = try NL80211Wiphy(dump: parts)
        #expect(wiphy.index == 0)
        #expect(wiphy.name == "phy0")
        #expect(wiphy.supportedInterfaceTypes == [2, 10, 12])
        #expect(wiphy.supports(.nan))
        #expect(!wiphy.supports(.accessPoint))
        #expect(wiphy.supportedCommands == [55, 59])
        #expect(wiphy.supports(.remainOnChannel) && wiphy.supports(.frame) && !wiphy.supports(.startNAN))
        #expect(wiphy.has(.secureNAN))
        #expect(wiphy.extendedFeatures.count == 8)
        #expect(wiphy.transmitFrameTypes == [2: [0x00d0, 0x00b0]])
        #expect(wiphy.receiveFrameTypes == [2: [0x00d0, 0x00b0]])
        #expect(wiphy.maxRemainOnChannelDuration == 5000)
        #expect(wiphy.reportsNANCapabilities && wiphy.userspaceDiscoveryEngine)
    }

    @Test func refusesADumpThatMixesWiphys() throws {
        var other = KernelMessages.wiphyPart2
        other[24] = 1  // WIPHY u32 of the second part.
        #expect(throws: RadioError.invalidReply("a dump for wiphy 0 has a part for wiphy 1")) {
            try NL80211Wiphy(dump: [
                GenericNetlinkMessage(parsing: KernelMessages.wiphyPart1), GenericNetlinkMessage(parsing: other),
            ])
        }
        #expect(throws: RadioError.unexpectedCommand(expected: 3, actual: 7)) {
            try NL80211Wiphy(dump: [GenericNetlinkMessage(parsing: KernelMessages.newInterface)])
        }
        #expect(throws: RadioError.unexpectedCommand(expected: 7, actual: 3)) {
            try NL80211Interface(reply: GenericNetlinkMessage(parsing: KernelMessages.wiphyPart1))
        }
    }

    @Test func parsesAFrameEventCarryingAnSDF() throws {
        let event = try NL80211Event(GenericNetlinkMessage(parsing: KernelMessages.frameEvent))
        #expect(event == .frame(NL80211ReceivedFrame(frame: KernelMessages.sdf, frequencyMHz: 2437, signalDBm: -60)))
        // The SDF inside is intact: Public Action, vendor specific, WFA OUI, NAN type 0x13.
        #expect(KernelMessages.sdf.count == 42)
        #expect(Array(KernelMessages.sdf[24..<30]) == NL80211FrameRegistration.serviceDiscovery.match)
    }

    @Test func parsesTransmitStatusWithAndWithoutAck() throws {
        let acknowledged = try NL80211Event(GenericNetlinkMessage(parsing: KernelMessages.transmitStatus))
        #expect(
            acknowledged
                == .frameTransmitStatus(
                    NL80211FrameTransmitStatus(
                        cookie: 0x1122_3344_5566_7788,
                        acknowledged: true,
                        frame: KernelMessages.sdf
                    )
                )
        )
        // Without the ACK flag (the last 4 octets) and with nlmsg_len 0x60.
        var lost = Array(KernelMessages.transmitStatus.dropLast(4))
        lost[0] = 0x60
        guard case .frameTransmitStatus(let status) = try NL80211Event(GenericNetlinkMessage(parsing: lost)) else {
            Issue.record("not a TX status")
            return
        }
        #expect(!status.acknowledged)
        #expect(status.cookie == 0x1122_3344_5566_7788)
        // An ACK flag with a payload is not a flag.
        var message = try GenericNetlinkMessage(parsing: KernelMessages.transmitStatus)
        message.attributes[message.attributes.count - 1] = .u8(92, 1)
        #expect(throws: RadioError.attributeSize(type: 92, expected: 0, actual: 1)) { try NL80211Event(message) }
    }

    @Test func parsesANANMatchEvent() throws {
        let event = try NL80211Event(GenericNetlinkMessage(parsing: KernelMessages.nanMatch))
        #expect(
            event
                == .nanMatch(
                    NL80211NANMatch(
                        cookie: 7,
                        peerAddress: MACAddress(2, 0, 0, 0, 0, 0x0a),
                        functionType: NL80211Constants.NANFunctionType.subscribe.rawValue,
                        localInstanceID: 3,
                        peerInstanceID: 9,
                        serviceInfo: Array("hi".utf8)
                    )
                )
        )
    }

    @Test func parsesTheFunctionTerminationAndRemainOnChannelEvents() throws {
        #expect(
            try NL80211Event(GenericNetlinkMessage(parsing: KernelMessages.nanTerminated))
                == .nanFunctionTerminated(cookie: 7, instanceID: 3, reason: 1)
        )
        let started = GenericNetlinkMessage(familyID: 0x1c, command: 55, attributes: [.u64(88, 5), .u32(38, 2437)])
        #expect(try NL80211Event(started) == .remainOnChannel(cookie: 5, frequencyMHz: 2437))
        let ended = GenericNetlinkMessage(familyID: 0x1c, command: 56, attributes: [.u64(88, 5)])
        #expect(try NL80211Event(ended) == .remainOnChannelEnded(cookie: 5))
        #expect(
            try NL80211Event(GenericNetlinkMessage(familyID: 0x1c, command: 34, attributes: [])) == .other(command: 34)
        )
    }

    @Test func eventsWithoutTheirAttributesAreTypedErrors() throws {
        var status = try GenericNetlinkMessage(parsing: KernelMessages.transmitStatus)
        status.attributes.removeAll { $0.type == 88 }
        #expect(throws: RadioError.missingAttribute(command: 60, attribute: 88)) { try NL80211Event(status) }
        var frame = try GenericNetlinkMessage(parsing: KernelMessages.frameEvent)
        frame.attributes.removeAll { $0.type == 38 }
        #expect(throws: RadioError.missingAttribute(command: 59, attribute: 38)) { try NL80211Event(frame) }
        var match = try GenericNetlinkMessage(parsing: KernelMessages.nanMatch)
        match.attributes[match.attributes.count - 1] = .nested(241, [.nested(1, [.u8(1, 1), .u8(15, 3)])])
        #expect(throws: RadioError.missingAttribute(command: 120, attribute: 2)) { try NL80211Event(match) }
        match.attributes[3] = .bytes(6, [2, 0, 0])
        #expect(throws: RadioError.attributeSize(type: 6, expected: 6, actual: 3)) { try NL80211Event(match) }
        var terminated = try GenericNetlinkMessage(parsing: KernelMessages.nanTerminated)
        terminated.attributes[1] = .nested(240, [.u8(15, 3)])
        #expect(throws: RadioError.missingAttribute(command: 118, attribute: 16)) { try NL80211Event(terminated) }
    }
}

@Suite struct NL80211DiscoveryPathTests {
    func wiphy() throws -> NL80211Wiphy {
        try NL80211Wiphy(dump: [
            GenericNetlinkMessage(parsing: KernelMessages.wiphyPart1),
            GenericNetlinkMessage(parsing: KernelMessages.wiphyPart2),
        ])
    }

    func interface() throws -> NL80211Interface {
        try NL80211Interface(reply: GenericNetlinkMessage(parsing: KernelMessages.newInterface))
    }

    @Test func choosesTheNANDeviceWhenEverythingIsThere() throws {
        var capable = try wiphy()
        capable.transmitFrameTypes[12] = [0x00d0, 0x00b0]
        capable.receiveFrameTypes[12] = [0x00d0, 0x00b0]
        #expect(try NL80211DiscoveryPath.select(interface: interface(), wiphy: capable) == .nanDevice)
    }

    @Test func fallsBackToUSDFramesOnTheStationInterface() throws {
        // The hand-built wiphy lists frame types for station only, not for the NAN device.
        #expect(try NL80211DiscoveryPath.select(interface: interface(), wiphy: wiphy()) == .unsynchronizedFrames)
        #expect(
            NL80211DiscoveryPath.missingForNANDevice(try wiphy()) == [
                "Action (0x00d0) in NL80211_ATTR_TX_FRAME_TYPES for nan",
                "Action (0x00d0) in NL80211_ATTR_RX_FRAME_TYPES for nan",
                "Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan",
                "Authentication (0x00b0) in NL80211_ATTR_RX_FRAME_TYPES for nan",
            ]
        )
    }

    @Test func namesEveryMissingCapability() throws {
        var bare = NL80211Wiphy(index: 0)
        bare.supportedInterfaceTypes = [2]
        bare.supportedCommands = [59]
        bare.transmitFrameTypes = [2: [0x00d0]]
        bare.receiveFrameTypes = [2: [0x00d0, 0x00b0]]
        let expected = RadioError.notNANCapable(
            interface: "wlan0",
            missing: [
                "for a NAN device: NL80211_IFTYPE_NAN in NL80211_ATTR_SUPPORTED_IFTYPES",
                "for a NAN device: NL80211_NAN_CAPA_USERSPACE_DE in NL80211_ATTR_NAN_CAPABILITIES",
                "for a NAN device: NL80211_EXT_FEATURE_SECURE_NAN in NL80211_ATTR_EXT_FEATURES",
                "for a NAN device: Action (0x00d0) in NL80211_ATTR_TX_FRAME_TYPES for nan",
                "for a NAN device: Action (0x00d0) in NL80211_ATTR_RX_FRAME_TYPES for nan",
                "for a NAN device: Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan",
                "for a NAN device: Authentication (0x00b0) in NL80211_ATTR_RX_FRAME_TYPES for nan",
                "for NAN function offload: NL80211_IFTYPE_NAN in NL80211_ATTR_SUPPORTED_IFTYPES",
                "for NAN function offload: NL80211_CMD_START_NAN in NL80211_ATTR_SUPPORTED_COMMANDS",
                "for NAN function offload: NL80211_CMD_ADD_NAN_FUNCTION in NL80211_ATTR_SUPPORTED_COMMANDS",
                "for NAN function offload: NL80211_CMD_DEL_NAN_FUNCTION in NL80211_ATTR_SUPPORTED_COMMANDS",
                "for NAN USD frames: NL80211_CMD_REMAIN_ON_CHANNEL in NL80211_ATTR_SUPPORTED_COMMANDS",
                "for NAN USD frames: Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for station",
            ]
        )
        #expect(throws: expected) { try NL80211DiscoveryPath.select(interface: interface(), wiphy: bare) }
        #expect(expected.description.hasPrefix("interface wlan0 cannot carry Wi-Fi Aware frames; its wiphy lacks: "))
        #expect(expected.description.contains("iw phy"))
    }

    /// A wiphy with the NAN interface type (12) and START_NAN (115), ADD_NAN_FUNCTION (117),
    /// DEL_NAN_FUNCTION (118) among its commands, without USERSPACE_DE (`linux/nl80211.h`).
    func offloadOnly() -> NL80211Wiphy {
        var wiphy = NL80211Wiphy(index: 0)
        wiphy.supportedInterfaceTypes = [2, 12]
        wiphy.supportedCommands = [115, 117, 118]
        return wiphy
    }

    @Test func choosesFunctionOffloadForADriverDiscoveryEngine() throws {
        #expect(try NL80211DiscoveryPath.select(interface: interface(), wiphy: offloadOnly()) == .functionOffload)
        // Preferred to USD frames on the station interface, which this wiphy also offers (the
        // hand-built wiphy reports USERSPACE_DE; a driver engine does not).
        var both = try wiphy()
        both.supportedCommands.formUnion([115, 117, 118])
        both.supportedInterfaceTypes.insert(12)
        both.userspaceDiscoveryEngine = false
        #expect(try NL80211DiscoveryPath.select(interface: interface(), wiphy: both) == .functionOffload)
        // And the NAN device with a userspace engine is preferred to it.
        both.transmitFrameTypes[12] = [0x00d0, 0x00b0]
        both.receiveFrameTypes[12] = [0x00d0, 0x00b0]
        both.reportsNANCapabilities = true
        both.userspaceDiscoveryEngine = true
        both.extendedFeatures = [0, 0, 0, 0, 0, 0, 0, 0x80]  // bit 63: SECURE_NAN
        #expect(try NL80211DiscoveryPath.select(interface: interface(), wiphy: both) == .nanDevice)
    }

    @Test func namesWhatOffloadLacks() throws {
        var noDelete = offloadOnly()
        noDelete.supportedCommands = [115, 117]
        #expect(
            NL80211DiscoveryPath.missingForOffload(noDelete) == [
                "NL80211_CMD_DEL_NAN_FUNCTION in NL80211_ATTR_SUPPORTED_COMMANDS"
            ]
        )
        // USERSPACE_DE without SECURE_NAN: not a NAN device for pairing, and not offload either,
        // since such a driver must not be given functions.
        var userspace = offloadOnly()
        userspace.reportsNANCapabilities = true
        userspace.userspaceDiscoveryEngine = true
        let error = #expect(throws: RadioError.self) {
            try NL80211DiscoveryPath.select(interface: interface(), wiphy: userspace)
        }
        guard case .notNANCapable(_, let missing)? = error else {
            Issue.record("not a notNANCapable error: \(String(describing: error))")
            return
        }
        #expect(
            missing.contains(
                "for NAN function offload: no NL80211_NAN_CAPA_USERSPACE_DE (the driver asks for a userspace "
                    + "discovery engine, which rules out ADD_NAN_FUNCTION)"
            )
        )
        #expect(missing.first == "for a NAN device: NL80211_EXT_FEATURE_SECURE_NAN in NL80211_ATTR_EXT_FEATURES")
    }

    @Test func offloadPairingNeedsAuthenticationFramesOnTheNANInterfaceType() throws {
        var wiphy = offloadOnly()
        #expect(
            NL80211DiscoveryPath.missingForOffloadPairing(wiphy) == [
                "NL80211_CMD_FRAME in NL80211_ATTR_SUPPORTED_COMMANDS",
                "NL80211_CMD_REGISTER_FRAME in NL80211_ATTR_SUPPORTED_COMMANDS",
                "Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan",
                "Authentication (0x00b0) in NL80211_ATTR_RX_FRAME_TYPES for nan",
            ]
        )
        wiphy.supportedCommands.formUnion([58, 59])
        wiphy.transmitFrameTypes[12] = [0x00b0]
        wiphy.receiveFrameTypes[12] = [0x00d0]
        #expect(
            NL80211DiscoveryPath.missingForOffloadPairing(wiphy) == [
                "Authentication (0x00b0) in NL80211_ATTR_RX_FRAME_TYPES for nan"
            ]
        )
        wiphy.receiveFrameTypes[12] = [0x00b0]
        #expect(NL80211DiscoveryPath.missingForOffloadPairing(wiphy).isEmpty)
    }
}

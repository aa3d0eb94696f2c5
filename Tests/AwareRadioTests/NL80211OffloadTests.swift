import AwareCore
import AwareTestSupport
import AwareWire
import CNetlink
import Foundation
import Testing

@testable import AwareRadio

/// Frames and kernel messages laid out by hand, from nan-wire-reference.md (1.1, 1.3, 2.4,
/// 2.5, 2.18) and `linux/nl80211.h` (6.1): attribute headers are `len (LE16) | type (LE16)`,
/// payloads padded to 4 octets, nests we send carry `NLA_F_NESTED` (0x8000), nests the kernel
/// sends do not (`nla_nest_start_noflag`).
enum OffloadSamples {
    /// Unsolicited Publish: A1 = A3 = NAN Network ID, A2 = 02:00:00:00:00:01, sequence 0x0010.
    /// SDA (03, 13 octets): Service ID 11..66, Instance 5, Requestor 0, Service Control 0x24
    /// (Publish, Matching Filter present, Discovery Range Limited), Matching Filter 3 octets
    /// `01 'a' | 00` (an item "a" and a wildcard). SDEA (0E, 13): Instance 5, Control 0,
    /// Service Info length 8: `50 6f 9a | 01 (Bonjour) | 03 'x=1'`. NPBA (2C, 5): Advertise,
    /// methods 0x0004.
    static let publish = hex(
        "d0000000 516f9a01 00000200 00000001 516f9a01 00001000 0409506f 9a13"
            + "030d00 11223344 5566 05 00 24 03 016100"
            + "0e0d00 05 0000 0800 506f9a01 03783d31"
            + "2c0500 00 00 00 0400"
    )

    /// The same publish with another TXT record (`x=2`).
    static let changedPublish = hex(
        "d0000000 516f9a01 00000200 00000001 516f9a01 00001000 0409506f 9a13"
            + "030d00 11223344 5566 05 00 24 03 016100"
            + "0e0d00 05 0000 0800 506f9a01 03783d32"
    )

    /// The solicited reply of that publish to subscriber 02:00:00:00:00:0a's instance 9:
    /// A1 unicast, Requestor Instance ID 9.
    static let solicitedPublish = hex(
        "d0000000 02000000 000a0200 00000001 516f9a01 00002000 0409506f 9a13"
            + "030d00 11223344 5566 05 09 24 03 016100"
            + "0e0d00 05 0000 0800 506f9a01 03783d31"
    )

    /// Active Subscribe: SDA (03, 23): Instance 7, Service Control 0x09 (Subscribe, SRF
    /// present), SRF length 13: control 0x02 (Include, address list), 02:..:0a, 02:..:0b.
    static let subscribe = hex(
        "d0000000 516f9a01 00000200 00000001 516f9a01 00003000 0409506f 9a13"
            + "031700 11223344 5566 07 00 09 0d 02 020000 00000a 020000 00000b"
    )

    /// Follow-up to 02:00:00:00:00:0a: SDA (03, 9): Instance 5, Requestor 9, Service Control
    /// 0x02; SDEA (0E, 10): Instance 5, Control 0, Service Info length 5 `50 6f 9a 02 aa`.
    static let followUp = hex(
        "d0000000 02000000 000a0200 00000001 516f9a01 00004000 0409506f 9a13"
            + "030900 11223344 5566 05 09 02"
            + "0e0a00 05 0000 0500 506f9a02 aa"
    )

    /// PASN Authentication frame 1 (algorithm 7, sequence 1, status 0), no elements.
    static let pasn = hex(
        "b0000000 02000000 000a0200 00000001 02000000 000a5000 0700 0100 0000"
    )

    /// NAN_MATCH (120) as `cfg80211_nan_match` lays it out: WIPHY 0, WDEV 0x100000002, COOKIE
    /// 0x41, MAC 02:00:00:00:00:0a, NAN_MATCH { LOCAL { INSTANCE_ID 0x21 }, PEER { TYPE 1
    /// (subscribe: the driver replied to a subscriber), INSTANCE_ID 9, SERVICE_INFO "hi" } }.
    static let match = hex(
        "6c000000 1c000000 00000000 00000000 78000000"
            + "08000100 00000000 0c009900 02000000 01000000 0c005800 41000000 00000000"
            + "0a000600 02000000 000a0000"
            + "2c00f100 0c000100 05000f00 21000000 1c000200 05000100 01000000 05000f00 09000000 06000b00 68690000"
    )

    /// The SDF that match becomes for the station 02:00:00:00:00:01 whose instance 5 owns the
    /// function: A1 = that station, A2 = the peer, A3 = NAN Network ID, sequence 0; SDA (03,
    /// 12): Service ID 11..66, Instance 9 (the peer's), Requestor 5 (the role's own), Service
    /// Control 0x11 (Subscribe, Service Info present), Service Info `02 'h' 'i'`.
    static let matchSDF = hex(
        "d0000000 02000000 00010200 0000000a 516f9a01 00000000 0409506f 9a13"
            + "030c00 11223344 5566 09 05 11 02 6869"
    )
}

@Suite struct NL80211OffloadTranslationTests {
    /// The nested NL80211_ATTR_NAN_FUNC alone, as octets.
    func octets(_ function: NL80211NANFunction) throws -> [UInt8] {
        Array(
            try GenericNetlinkMessage(familyID: 0x1c, command: 117, attributes: [function.attribute()])
                .serialized().dropFirst(20)
        )
    }

    /// The limits the translation checks, against the installed `linux/nl80211.h` (6.1).
    @Test func limitsComeFromTheHeader() {
        #expect(NL80211Constants.nanSRFMaxLength == Int(NL80211_NAN_FUNC_SRF_MAX_LEN))
        #expect(NL80211Constants.nanServiceSpecificInfoMaxLength == Int(NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN))
        #expect(UInt32(NL80211Constants.NANPublishType.solicited.rawValue) == NL80211_NAN_SOLICITED_PUBLISH.rawValue)
        #expect(
            UInt32(NL80211Constants.NANPublishType.unsolicited.rawValue) == NL80211_NAN_UNSOLICITED_PUBLISH.rawValue
        )
    }

    @Test func anUnsolicitedPublishBecomesAPublishFunction() throws {
        guard
            case .function(let instanceID, let function, let lost) = try NL80211OffloadFrame(
                frame: OffloadSamples.publish
            )
        else {
            Issue.record("not a function")
            return
        }
        #expect(instanceID == 5)
        #expect(
            lost == [
                "the SDEA itself: its service info is sent as the SDA's service-specific info",
                "the NPBA (NAN Pairing Bootstrapping, 0x2C)",
            ]
        )
        // TYPE (1) 0 publish; SERVICE_ID (2); PUBLISH_TYPE (3) 2 = UNSOLICITED; CLOSE_RANGE (9);
        // SERVICE_INFO (11) = the SDEA's Service Info; TX_MATCH_FILTER (14) { 1: "a", 2: "" }.
        #expect(
            try octets(function)
                == hex(
                    "4000f080 05000100 00000000 0a000200 11223344 55660000 05000300 02000000 04000900"
                        + "0c000b00 506f9a01 03783d31 10000e80 05000100 61000000 04000200"
                )
        )
    }

    @Test func aSolicitedPublishIsASolicitedFunction() throws {
        guard case .function(5, let function, _) = try NL80211OffloadFrame(frame: OffloadSamples.solicitedPublish)
        else {
            Issue.record("not a function for instance 5")
            return
        }
        #expect(function.kind == .publish(.solicited, broadcast: false))
    }

    @Test func anActiveSubscribeBecomesASubscribeFunctionWithItsSRF() throws {
        guard case .function(7, let function, let lost) = try NL80211OffloadFrame(frame: OffloadSamples.subscribe)
        else {
            Issue.record("not a function for instance 7")
            return
        }
        #expect(lost.isEmpty)
        // TYPE 1; SERVICE_ID; SUBSCRIBE_ACTIVE (5); SRF (12) { INCLUDE (1), MAC_ADDRS (4)
        // { 1: 02:..:0a, 2: 02:..:0b } }.
        #expect(
            try octets(function)
                == hex(
                    "4000f080 05000100 01000000 0a000200 11223344 55660000 04000500"
                        + "24000c80 04000100 1c000480 0a000100 02000000 000a0000 0a000200 02000000 000b0000"
                )
        )
    }

    @Test func aBloomFilterSRFCarriesItsIndex() throws {
        let function = NL80211NANFunction(
            kind: .subscribe(active: false),
            serviceID: hex("112233445566"),
            serviceResponseFilter: ServiceResponseFilter(
                include: false,
                addressSet: .bloomFilter([0xab, 0xcd]),
                bloomFilterIndex: 1
            )
        )
        // SRF (12) { BF (2) ab cd, BF_IDX (3) 1 }; no INCLUDE flag for an exclude filter.
        #expect(
            try octets(function)
                == hex(
                    "2c00f080 05000100 01000000 0a000200 11223344 55660000 14000c80 06000200 abcd0000 05000300 01000000"
                )
        )
        var tooLong = function
        tooLong.serviceResponseFilter = ServiceResponseFilter(include: true, addressSet: .bloomFilter([]))
        #expect(throws: RadioError.attributeSize(type: 2, expected: 255, actual: 0)) { try tooLong.attribute() }
        var zeroTTL = function
        zeroTTL.ttl = 0
        #expect(throws: RadioError.invalidRequest("NL80211_NAN_FUNC_TTL must be strictly positive")) {
            try zeroTTL.attribute()
        }
    }

    @Test func aFollowUpBecomesAFollowUpFunction() throws {
        guard case .followUp(let function, let lost) = try NL80211OffloadFrame(frame: OffloadSamples.followUp) else {
            Issue.record("not a follow-up")
            return
        }
        #expect(lost == ["the SDEA itself: its service info is sent as the SDA's service-specific info"])
        // TYPE 2; SERVICE_ID; FOLLOW_UP_ID (6) 5; FOLLOW_UP_REQ_ID (7) 9; FOLLOW_UP_DEST (8);
        // SERVICE_INFO (11) 50 6f 9a 02 aa.
        #expect(
            try octets(function)
                == hex(
                    "4000f080 05000100 02000000 0a000200 11223344 55660000 05000600 05000000 05000700 09000000"
                        + "0a000800 02000000 000a0000 09000b00 506f9a02 aa000000"
                )
        )
    }

    @Test func framesWithoutAFunctionAreTypedErrors() throws {
        #expect(try NL80211OffloadFrame(frame: OffloadSamples.pasn) == .authentication)
        // A Public Action frame that is not NAN (action 10).
        let notNAN = hex("d0000000 516f9a01 00000200 00000001 516f9a01 00000000 040a00")
        #expect(throws: NL80211OffloadError.self) { try NL80211OffloadFrame(frame: notNAN) }
        do {
            _ = try NL80211OffloadFrame(frame: notNAN)
        } catch .notCarried(let kind) {
            #expect(kind.hasSuffix("(not NAN)"))
        } catch {
            Issue.record("expected notCarried, got \(error)")
        }
        do {
            _ = try NL80211OffloadFrame(frame: [0xd0, 0x00])
            Issue.record("a 2-octet frame was translated")
        } catch .unreadableFrame(let wire) {
            #expect(wire.offset <= 2)
        } catch {
            Issue.record("expected unreadableFrame, got \(error)")
        }
        // Two Service Descriptors in one SDF.
        let two = OffloadSamples.subscribe + hex("030900 11223344 5566 08 00 01")
        #expect(throws: NL80211OffloadError.serviceDescriptorCount(2)) { try NL80211OffloadFrame(frame: two) }
        // An SDF with none.
        let none = hex("d0000000 516f9a01 00000200 00000001 516f9a01 00000000 0409506f 9a13")
        #expect(throws: NL80211OffloadError.serviceDescriptorCount(0)) { try NL80211OffloadFrame(frame: none) }
    }

    @Test func aMatchBecomesTheSDFTheRoleWouldHaveReceived() throws {
        guard case .nanMatch(let match) = try NL80211Event(GenericNetlinkMessage(parsing: OffloadSamples.match)) else {
            Issue.record("not a match")
            return
        }
        #expect(match.cookie == 0x41)
        #expect(match.functionType == 1)
        #expect(match.localInstanceID == 0x21)
        #expect(match.peerInstanceID == 9)
        let sdf = try match.serviceDiscoveryFrame(
            serviceID: ServiceID(serviceName: "x"),
            localInstanceID: 5,
            localAddress: MACAddress(2, 0, 0, 0, 0, 1)
        )
        // Only the Service ID differs from the sample, which is built for 11..66.
        var expected = OffloadSamples.matchSDF
        expected.replaceSubrange(33..<39, with: ServiceID(serviceName: "x").octets)
        #expect(sdf == expected)
        let forSample = try match.serviceDiscoveryFrame(
            serviceID: try #require(ServiceID(hex("112233445566"))),
            localInstanceID: 5,
            localAddress: MACAddress(2, 0, 0, 0, 0, 1)
        )
        #expect(forSample == OffloadSamples.matchSDF)
    }

    /// Every octet of the kernel-layout match changed five ways, and every truncation: parsing
    /// and building the SDF never trap; what fails is a typed error; what succeeds is an SDF
    /// whose single Service Descriptor carries the match's instance IDs.
    @Test func mutatedMatchEventsNeverTrap() throws {
        let sample = OffloadSamples.match
        #expect(sample.count == 0x6c)  // the nlmsghdr's own length field
        var variants: [[UInt8]] = (0..<sample.count).map { Array(sample.prefix($0)) }
        for index in sample.indices {
            for replacement: UInt8 in [0x00, 0xff, sample[index] &+ 1, sample[index] &- 4, sample[index] ^ 0x80] {
                var mutated = sample
                mutated[index] = replacement
                variants.append(mutated)
            }
        }
        var matches = 0
        var refused = 0
        let serviceID = try #require(ServiceID(hex("112233445566")))
        for variant in variants {
            let messages: [NetlinkReceivedMessage]
            do throws(RadioError) {
                messages = try NetlinkReceivedMessage.messages(in: variant)
            } catch .malformedMessage(_, let offset) {
                #expect(offset >= 0 && offset <= variant.count)
                refused += 1
                continue
            } catch .netlink(let operation, _, _) {
                #expect(operation == "genlmsg_parse")
                refused += 1
                continue
            } catch {
                Issue.record("unexpected error \(error)")
                continue
            }
            for case .generic(let message) in messages {
                let event: NL80211Event
                do throws(RadioError) {
                    event = try NL80211Event(message)
                } catch {
                    refused += 1
                    continue
                }
                guard case .nanMatch(let match) = event else { continue }
                do throws(RadioError) {
                    let sdf = try match.serviceDiscoveryFrame(
                        serviceID: serviceID,
                        localInstanceID: 5,
                        localAddress: MACAddress(2, 0, 0, 0, 0, 1)
                    )
                    guard let frame = try? IEEE80211Frame(bytes: sdf),
                        case .serviceDiscovery(let body)? = frame.managementFrame?.body,
                        case .serviceDescriptor(let sda)? = body.attributes.first
                    else {
                        Issue.record("the SDF of a match does not read back")
                        continue
                    }
                    #expect(sda.instanceID == match.peerInstanceID)
                    #expect(sda.requestorInstanceID == 5)
                    matches += 1
                } catch .invalidReply(let reason) {
                    #expect(reason.contains("NL80211_NAN_FUNC_TYPE"))
                    refused += 1
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }
        #expect(variants.count == sample.count * 6)
        #expect(matches > 100)
        #expect(refused > 300)
    }
}

@Suite(.serialized) struct NL80211OffloadRadioTests {
    final class Seen: @unchecked Sendable {
        var receptions: [Reception] = []
        var statuses: [TxStatus] = []
        var notices: [NL80211OffloadNotice] = []
        var errors: [RadioError] = []
    }

    static let wdev: UInt64 = 0x1_0000_0002
    static let own = MACAddress(2, 0, 0, 0, 0, 1)
    let scheduler = WallClockScheduler()

    /// Answers ADD_NAN_FUNCTION with cookies 0x40, 0x41, ... and driver instance IDs 0x20,
    /// 0x21, ... in a nested NAN_FUNC, as `nl80211_nan_add_func` replies.
    static func kernel() -> ScriptedKernel {
        var next: UInt64 = 0
        return ScriptedKernel { (request) throws(RadioError) in
            guard request.message.command == 117 else { return [] }
            defer { next += 1 }
            return [
                GenericNetlinkMessage(
                    familyID: 0x1c,
                    command: 117,
                    attributes: [.u64(88, 0x40 + next), .nested(240, [.u8(15, 0x20 + UInt8(next))])]
                )
            ]
        }
    }

    func radio(kernel: ScriptedKernel, pairingMissing: [String] = []) throws -> NL80211Radio {
        let interface = try NL80211Interface(reply: GenericNetlinkMessage(parsing: KernelMessages.newInterface))
        let setup = NL80211RadioSetup(
            familyID: 0x1c,
            interface: interface,
            wiphy: NL80211Wiphy(index: 0),
            path: .functionOffload,
            device: .wirelessDevice(Self.wdev),
            address: Self.own,
            pairingMissing: pairingMissing
        )
        return NL80211Radio(setup: setup, commands: kernel, events: nil, scheduler: scheduler)
    }

    func attach(_ radio: NL80211Radio, _ seen: Seen, listening: Set<NANChannel> = [.channel6]) throws -> any AirPort {
        let port = try scheduler.sync { () throws(AirError) -> any AirPort in
            radio.offloadNoticeHandler = { seen.notices.append($0) }
            radio.errorHandler = { seen.errors.append($0) }
            return try radio.attach(
                StationConfiguration(addresses: [Self.own], name: "accessory"),
                receive: { seen.receptions.append($0) },
                transmitted: { seen.statuses.append($0) }
            )
        }
        scheduler.sync { port.listeningChannels = listening }
        return port
    }

    func statuses(_ seen: Seen, count: Int) -> [TxStatus] {
        var statuses: [TxStatus] = []
        for _ in 0..<400 {
            statuses = scheduler.sync { seen.statuses }
            if statuses.count >= count { break }
            usleep(5_000)
        }
        return statuses
    }

    @Test func repeatedPublishesKeepOneFunctionAndAChangeReplacesIt() throws {
        let kernel = Self.kernel()
        let radio = try radio(kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let port = try attach(radio, seen)
        // Three discovery windows, the same publish each time: one ADD_NAN_FUNCTION.
        for cookie: UInt64 in 1...3 {
            scheduler.sync {
                port.transmit(TxRequest(frame: OffloadSamples.publish, channel: .channel6, cookie: cookie))
            }
        }
        #expect(kernel.commands == [117])
        let add = kernel.sent[0].message
        // WDEV (153) then the function, as the translation test lays it out.
        #expect(
            try Array(add.serialized().dropFirst(20))
                == hex(
                    "0c009900 02000000 01000000"
                        + "4000f080 05000100 00000000 0a000200 11223344 55660000 05000300 02000000 04000900"
                        + "0c000b00 506f9a01 03783d31 10000e80 05000100 61000000 04000200"
                )
        )
        #expect(statuses(seen, count: 3).map(\.acknowledged) == [true, true, true])

        // The solicited reply of the same instance is the driver's job: nothing is sent.
        scheduler.sync {
            port.transmit(TxRequest(frame: OffloadSamples.solicitedPublish, channel: .channel6, cookie: 4))
        }
        #expect(kernel.commands == [117])

        // New content: DEL_NAN_FUNCTION of cookie 0x40, then ADD of the new function.
        scheduler.sync { port.transmit(TxRequest(frame: OffloadSamples.changedPublish, channel: .channel6, cookie: 5)) }
        #expect(kernel.commands == [117, 118, 117])
        #expect(try kernel.sent[1].message.attribute(88)?.u64Value() == 0x40)
        #expect(try kernel.sent[1].message.attribute(153)?.u64Value() == Self.wdev)
        #expect(kernel.sent[2].message.attribute(240)?.child(11)?.payload == hex("506f9a01 03783d32"))

        // The role stops announcing: after the idle timeout the function is deleted.
        scheduler.sync { radio.deleteIdleFunctions(at: scheduler.now + .seconds(Int64(2))) }
        #expect(kernel.commands == [117, 118, 117])
        scheduler.sync { radio.deleteIdleFunctions(at: scheduler.now + .seconds(Int64(6))) }
        #expect(kernel.commands == [117, 118, 117, 118])
        #expect(try kernel.sent[3].message.attribute(88)?.u64Value() == 0x41)
        let notices = scheduler.sync { seen.notices }
        #expect(
            notices.map {
                switch $0 {
                case .functionAdded(_, let instance, let cookie, _): "add \(instance) \(cookie)"
                case .functionDeleted(_, let instance, let cookie, _): "del \(instance) \(cookie)"
                case .functionTerminated(let cookie, _, _): "end \(cookie)"
                }
            } == ["add 5 64", "del 5 64", "add 5 65", "del 5 65"]
        )
    }

    @Test func aPublishThatAnswersFirstAndAnnouncesLaterKeepsBothTypes() throws {
        let kernel = Self.kernel()
        let radio = try radio(kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let port = try attach(radio, Seen())
        scheduler.sync {
            port.transmit(TxRequest(frame: OffloadSamples.solicitedPublish, channel: .channel6, cookie: 1))
        }
        #expect(kernel.commands == [117])
        // PUBLISH_TYPE (3) 1: NL80211_NAN_SOLICITED_PUBLISH.
        #expect(try kernel.sent[0].message.attribute(240)?.child(3)?.u8Value() == 1)
        scheduler.sync {
            port.transmit(TxRequest(frame: OffloadSamples.publish, channel: .channel6, cookie: 2))
            port.transmit(TxRequest(frame: OffloadSamples.publish, channel: .channel6, cookie: 3))
            port.transmit(TxRequest(frame: OffloadSamples.solicitedPublish, channel: .channel6, cookie: 4))
        }
        // One replacement: PUBLISH_TYPE 3, solicited | unsolicited; then nothing more.
        #expect(kernel.commands == [117, 118, 117])
        #expect(try kernel.sent[2].message.attribute(240)?.child(3)?.u8Value() == 3)
    }

    @Test func aMatchArrivesAsAnSDFAndATerminationIsReported() throws {
        let kernel = Self.kernel()
        let radio = try radio(kernel: kernel)
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let port = try attach(radio, seen, listening: [])
        scheduler.sync { port.transmit(TxRequest(frame: OffloadSamples.publish, channel: .channel6, cookie: 1)) }
        #expect(kernel.commands == [117])

        // The sample match is for cookie 0x41; the function has 0x40. Unknown: reported, dropped.
        let event = try NL80211Event(GenericNetlinkMessage(parsing: OffloadSamples.match))
        scheduler.sync { radio.handle(event) }
        #expect(
            scheduler.sync { seen.errors.map(\.description) } == [
                "refusing to send an nl80211 request: "
                    + NL80211OffloadError.matchForUnknownFunction(cookie: 0x41).description
            ]
        )
        guard case .nanMatch(var match) = event else {
            Issue.record("not a match")
            return
        }
        match.cookie = 0x40
        // Nobody listens on channel 6 yet: the SDF waits, then arrives when the station listens.
        scheduler.sync { radio.handle(.nanMatch(match)) }
        #expect(scheduler.sync { seen.receptions }.isEmpty)
        scheduler.sync { port.listeningChannels = [.channel6] }
        var receptions: [Reception] = []
        for _ in 0..<400 where receptions.isEmpty {
            usleep(5_000)
            receptions = scheduler.sync { seen.receptions }
        }
        #expect(receptions.map(\.frame) == [OffloadSamples.matchSDF])
        #expect(receptions.map(\.info.channel) == [.channel6])

        // The driver ends the function (TTL expired): reported, and the next publish adds it again.
        scheduler.sync { radio.handle(.nanFunctionTerminated(cookie: 0x40, instanceID: 0x20, reason: 1)) }
        #expect(scheduler.sync { seen.notices }.last == .functionTerminated(cookie: 0x40, instanceID: 0x20, reason: 1))
        scheduler.sync { port.transmit(TxRequest(frame: OffloadSamples.publish, channel: .channel6, cookie: 2)) }
        #expect(kernel.commands == [117, 117])

        // A follow-up from instance 5 goes out under the driver's instance ID for it (0x21).
        scheduler.sync { port.transmit(TxRequest(frame: OffloadSamples.followUp, channel: .channel6, cookie: 3)) }
        #expect(kernel.commands == [117, 117, 117])
        let followUp = try #require(kernel.sent[2].message.attribute(240))
        #expect(try followUp.child(1)?.u8Value() == 2)
        #expect(try followUp.child(6)?.u8Value() == 0x21)
        #expect(try followUp.child(7)?.u8Value() == 9)
        #expect(followUp.child(8)?.payload == [2, 0, 0, 0, 0, 0x0a])

        // Leaving the air deletes the publish function (cookie 0x41).
        scheduler.sync { port.detach() }
        #expect(kernel.commands == [117, 117, 117, 118])
        #expect(try kernel.sent[3].message.attribute(88)?.u64Value() == 0x41)
        // A follow-up the driver never reports ended (cookie 0x42) is deleted after the timeout.
        scheduler.sync { radio.deleteIdleFunctions(at: scheduler.now + .seconds(Int64(6))) }
        #expect(kernel.commands == [117, 117, 117, 118, 118])
        #expect(try kernel.sent[4].message.attribute(88)?.u64Value() == 0x42)
    }

    @Test func pairingFramesNeedAuthenticationFramesOnTheNANDevice() throws {
        let refusing = Self.kernel()
        let radio = try radio(
            kernel: refusing,
            pairingMissing: ["Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan"]
        )
        scheduler.runInBackground()
        defer {
            scheduler.stop()
            radio.close()
        }
        let seen = Seen()
        let port = try attach(radio, seen)
        // A NAN beacon-like frame the driver engine has no function for, twice, and a PASN frame.
        let notNAN = hex("d0000000 516f9a01 00000200 00000001 516f9a01 00000000 040a00")
        scheduler.sync {
            port.transmit(TxRequest(frame: OffloadSamples.pasn, channel: .channel6, cookie: 1))
            port.transmit(TxRequest(frame: notNAN, channel: .channel6, cookie: 2))
            port.transmit(TxRequest(frame: notNAN, channel: .channel6, cookie: 3))
        }
        #expect(refusing.commands.isEmpty)
        #expect(statuses(seen, count: 3).map(\.acknowledged) == [false, false, false])
        let errors = scheduler.sync { seen.errors.map(\.description) }
        #expect(errors.count == 2)
        #expect(
            errors.first
                == "refusing to send an nl80211 request: NAN function offload: pairing (PASN Authentication frames) "
                + "is refused on this wiphy: it lacks Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan"
        )

        // Where the wiphy allows them, PASN frames go out whole with NL80211_CMD_FRAME on the wdev.
        let kernel = ScriptedKernel { (request) throws(RadioError) in
            [GenericNetlinkMessage(familyID: 0x1c, command: 59, attributes: [.u64(88, 0x70)])]
        }
        let pairing = try self.radio(kernel: kernel)
        defer { pairing.close() }
        let second = Seen()
        let pairingPort = try scheduler.sync { () throws(AirError) -> any AirPort in
            try pairing.attach(
                StationConfiguration(addresses: [Self.own], name: "phone"),
                receive: { second.receptions.append($0) },
                transmitted: { second.statuses.append($0) }
            )
        }
        scheduler.sync { pairingPort.transmit(TxRequest(frame: OffloadSamples.pasn, channel: .channel6, cookie: 9)) }
        #expect(kernel.commands == [59])
        #expect(kernel.sent[0].message.attributes.map(\.type) == [153, 51])
        #expect(kernel.sent[0].message.attribute(51)?.payload == OffloadSamples.pasn)
    }
}

@Suite struct NL80211OffloadSetupTests {
    /// A wiphy that offers only a driver discovery engine: the NAN interface type (12) and
    /// START_NAN, ADD/DEL_NAN_FUNCTION (115, 117, 118), plus FRAME (59) and REGISTER_FRAME (58)
    /// and, when `authentication`, Authentication frames for the NAN interface type.
    static func kernel(authentication: Bool) -> ScriptedKernel {
        ScriptedKernel { (request) throws(RadioError) in
            switch NL80211Constants.Command(rawValue: request.message.command) {
            case .getInterface: return [try GenericNetlinkMessage(parsing: KernelMessages.newInterface)]
            case .getWiphy:
                var attributes: [NetlinkAttribute] = [
                    .u32(1, 0), .nested(32, [.flag(2), .flag(12)]),
                    .nested(50, [.u32(1, 115), .u32(2, 117), .u32(3, 118), .u32(4, 58), .u32(5, 59)]),
                ]
                if authentication {
                    let types = NetlinkAttribute.nested(12, [.u16(101, 0x00b0)])
                    attributes += [.nested(99, [types]), .nested(100, [types])]
                }
                return [GenericNetlinkMessage(familyID: 0x1c, command: 3, attributes: attributes)]
            case .newInterface:
                return [
                    GenericNetlinkMessage(
                        familyID: 0x1c,
                        command: 7,
                        attributes: [.u32(1, 0), .u32(5, 12), .u64(153, 0x1_0000_0002), .bytes(6, [2, 0, 0, 0, 0, 5])]
                    )
                ]
            default: return []
            }
        }
    }

    @Test func startsANANDeviceAndRegistersOnlyPASNFrames() throws {
        let kernel = Self.kernel(authentication: true)
        let setup = try NL80211RadioSetup.run(
            interfaceName: "wlan0",
            interfaceIndex: 3,
            familyID: 0x1c,
            through: kernel
        )
        #expect(setup.path == .functionOffload)
        #expect(setup.device == .wirelessDevice(0x1_0000_0002))
        #expect(setup.pairingMissing.isEmpty)
        // GET_INTERFACE, GET_WIPHY, NEW_INTERFACE, START_NAN, one REGISTER_FRAME (Authentication, 07 00).
        #expect(kernel.commands == [5, 1, 7, 115, 58])
        #expect(try kernel.sent[4].message.attribute(101)?.u16Value() == 0x00b0)
        #expect(kernel.sent[4].message.attribute(91)?.payload == [0x07, 0x00])
    }

    @Test func withoutAuthenticationFramesPairingIsRefusedAndNothingIsRegistered() throws {
        let kernel = Self.kernel(authentication: false)
        let setup = try NL80211RadioSetup.run(
            interfaceName: "wlan0",
            interfaceIndex: 3,
            familyID: 0x1c,
            through: kernel
        )
        #expect(setup.path == .functionOffload)
        #expect(kernel.commands == [5, 1, 7, 115])
        #expect(
            setup.pairingMissing == [
                "Authentication (0x00b0) in NL80211_ATTR_TX_FRAME_TYPES for nan",
                "Authentication (0x00b0) in NL80211_ATTR_RX_FRAME_TYPES for nan",
            ]
        )
    }
}

import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// The bootstrapping of the recorded hostap session (Fixtures/hostap-session-A, transcript.json
/// "bootstrapping"): frames 4, 5, 12, 13 of session.pcap, pasted whole. Phone 02:b0:00:00:00:02
/// (subscribe instance 1, PIN keypad), accessory 02:a0:00:00:00:01 (publish instance 1, PIN
/// display), dialog token 1, Comeback After 200 TU, cookie 1b122603.
@Suite struct BootstrapHostapSessionTests {
    typealias Support = BootstrapTestSupport

    static let frame4 = """
        d000000002a00000000102b000000002506f9a01123400000409506f9a130309003425f17bda310101020f09000009\
        000411110a0008121c000530000e00e111180004fefffeff11512000000700fa0711512000002a020000032b110000\
        78e50ddf01e2c629e9e1ef86357192182c05000101002000
        """
    static let frame5 = """
        d000000002b00000000202a000000001506f9a01123400000409506f9a130309003425f17bda310101020f09000009\
        000411110a0008121c000630000e00e111180004fefffeff11512000000700fa0711512000002a020000032b110000\
        593bf80fbd075b8847180ccf3e61bada2c0c00012200c800041b1226030000
        """
    static let frame12 = """
        d000000002a00000000102b000000002506f9a01123400000409506f9a130309003425f17bda310101020f09000009\
        000411110a0008121c000d30000e00e111180004fefffeff11512000000700fa0711512000002a020000032b110000\
        78e50ddf01e2c629e9e1ef86357192182c0a00012100041b1226032000
        """
    static let frame13 = """
        d000000002b00000000202a000000001506f9a01123400000409506f9a130309003425f17bda310101020f09000009\
        000411110a0008121c000e30000e00e111180004fefffeff11512000000700fa0711512000002a020000032b110000\
        593bf80fbd075b8847180ccf3e61bada2c05000102000200
        """

    /// The last 8, 15, 13 and 8 octets of those frames: the NPBA of each (2.18).
    static let npba4 = "2c 0500 01 01 00 2000"
    static let npba5 = "2c 0c00 01 22 00 c800 04 1b122603 0000"
    static let npba12 = "2c 0a00 01 21 00 04 1b122603 2000"
    static let npba13 = "2c 0500 01 02 00 0200"

    static let phone = BootstrapLink.phone
    static let accessory = BootstrapLink.accessory
    /// The responder draws the cookie as the four low-order octets of one draw, least significant first.
    static let cookieDraw: UInt64 = 0x0326_121B
    static let comebackDelay = Interval(nanoseconds: 204_800_000)

    static func pinResponder() -> BootstrapResponder {
        BootstrapResponder(
            configuration: BootstrapResponderConfiguration(offered: .pinCodeDisplay, comebackAfterTU: 200)
        )
    }

    /// What the discovery engine hands up for a recorded Follow-up SDF: A2 is the peer, the SDA's
    /// Requestor Instance ID the own instance and its Instance ID the peer's (1.3, 2.4).
    static func followUp(_ frameHex: String) throws -> FollowUpMessage {
        var reader = WireReader(Support.hex(frameHex), structure: "recorded frame")
        let frame = try ManagementFrame(from: &reader)
        try reader.expectEnd()
        guard case .serviceDiscovery(let sdf) = frame.body else {
            throw WireError(.invalidValue("not an SDF"), structure: "recorded frame", offset: 0)
        }
        var descriptor: ServiceDescriptorAttribute?
        for case .serviceDescriptor(let sda) in sdf.attributes { descriptor = sda }
        let sda = try #require(descriptor)
        return FollowUpMessage(
            localInstanceID: sda.requestorInstanceID,
            peerAddress: frame.header.address2,
            peerInstanceID: sda.instanceID,
            serviceSpecificInfo: nil,
            descriptorServiceInfo: nil,
            attributes: sdf.attributes,
            rssiDBm: -50,
            timestamp: .zero
        )
    }

    static func transmitted<N>(_ actions: [BootstrapAction<N>]) -> [FollowUpRequest] {
        actions.compactMap { if case .transmit(let followUp) = $0 { followUp } else { nil } }
    }

    @Test func theRequesterBuildsFrames4And12() throws {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 1)
        let first = requester.handle(.start(BootstrapLink.target(.pinCodeKeypad, token: 1)), now: .zero, rng: &rng)
        #expect(Self.transmitted(first).map { Support.wire($0.npba) } == [Support.hex(Self.npba4)])

        let comeback = PairingBootstrappingAttribute(
            dialogToken: 1,
            type: .response,
            status: .comeback,
            comebackAfter: 200,
            cookie: [0x1B, 0x12, 0x26, 0x03],
            methods: []
        )
        _ = requester.handle(.received(Support.message(comeback, from: Self.accessory)), now: .zero, rng: &rng)
        let second = requester.handle(
            .timerFired(.comeback(peer: Self.accessory)),
            now: .zero + Self.comebackDelay,
            rng: &rng
        )
        #expect(Self.transmitted(second).map { Support.wire($0.npba) } == [Support.hex(Self.npba12)])
    }

    @Test func theResponderBuildsFrames5And13() {
        var responder = Self.pinResponder()
        var rng = ScriptedGenerator(values: [Self.cookieDraw])
        let request = PairingBootstrappingAttribute(
            dialogToken: 1,
            type: .request,
            status: .accepted,
            methods: .pinCodeKeypad
        )
        _ = responder.handle(.received(Support.message(request, from: Self.phone)), now: .zero, rng: &rng)
        let comeback = responder.handle(.decide(peer: Self.phone, .authorize), now: .zero, rng: &rng)
        #expect(Self.transmitted(comeback).map { Support.wire($0.npba) } == [Support.hex(Self.npba5)])

        let retry = PairingBootstrappingAttribute(
            dialogToken: 1,
            type: .request,
            status: .comeback,
            cookie: [0x1B, 0x12, 0x26, 0x03],
            methods: .pinCodeKeypad
        )
        let accepted = responder.handle(.received(Support.message(retry, from: Self.phone)), now: .zero, rng: &rng)
        #expect(Self.transmitted(accepted).map { Support.wire($0.npba) } == [Support.hex(Self.npba13)])
    }

    @Test func theResponderAnswersTheRecordedFrames4And12() throws {
        var responder = Self.pinResponder()
        var rng = ScriptedGenerator(values: [Self.cookieDraw])
        let asked = responder.handle(.received(try Self.followUp(Self.frame4)), now: .zero, rng: &rng)
        #expect(
            asked.first
                == .notify(.authorizationRequested(peer: Self.phone, peerInstanceID: 1, method: .pinCodeDisplay))
        )

        let comeback = Self.transmitted(responder.handle(.decide(peer: Self.phone, .authorize), now: .zero, rng: &rng))
        let recorded5 = try Self.followUp(Self.frame5)
        #expect(comeback.map(\.attributes.last) == [recorded5.attributes.last])
        // Frame 5 goes to A1 = the phone, SDA Instance ID 1, Requestor Instance ID 1.
        #expect(comeback.map(\.peerAddress) == [Self.phone])
        #expect(comeback.map(\.localInstanceID) == [recorded5.peerInstanceID])
        #expect(comeback.map(\.peerInstanceID) == [recorded5.localInstanceID])

        let accepted = responder.handle(.received(try Self.followUp(Self.frame12)), now: .zero, rng: &rng)
        #expect(Self.transmitted(accepted).map(\.attributes.last) == [try Self.followUp(Self.frame13).attributes.last])
        #expect(accepted.last == .notify(.accepted(peer: Self.phone, method: .pinCodeDisplay)))
        // hostap's accessory carries the comeback Request it received into PASN frame 2 (3.2).
        #expect(responder.agreement(with: Self.phone).map { Support.wire($0.request) } == Support.hex(Self.npba12))
    }

    @Test func theRequesterFollowsTheRecordedFrames5And13() throws {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 1)
        _ = requester.handle(.start(BootstrapLink.target(.pinCodeKeypad, token: 1)), now: .zero, rng: &rng)

        let comeback = requester.handle(.received(try Self.followUp(Self.frame5)), now: .zero, rng: &rng)
        #expect(
            comeback == [
                .cancel(.retransmit(peer: Self.accessory)),
                .notify(.comeback(after: Self.comebackDelay, cookie: [0x1B, 0x12, 0x26, 0x03])),
                .arm(.comeback(peer: Self.accessory), at: .zero + Self.comebackDelay),
            ]
        )
        _ = requester.handle(.timerFired(.comeback(peer: Self.accessory)), now: .zero + Self.comebackDelay, rng: &rng)
        let accepted = requester.handle(
            .received(try Self.followUp(Self.frame13)),
            now: .zero + Self.comebackDelay,
            rng: &rng
        )
        #expect(
            accepted == [
                .cancel(.retransmit(peer: Self.accessory)),
                .notify(.accepted(method: .pinCodeKeypad, peerMethod: .pinCodeDisplay)),
            ]
        )
        // hostap's phone carries its first Request into PASN frame 1 (3.2).
        #expect(requester.agreement.map { Support.wire($0.request) } == Support.hex(Self.npba4))
    }

    @Test func aCookieLengthPastTheAttributeIsAWireError() {
        // Frame 5 with Cookie Length 07 instead of 04 (octet 118): the cookie at 119 would need
        // 7 octets, the NPBA has 6 left.
        var bytes = Support.hex(Self.frame5)
        bytes[118] = 0x07
        var reader = WireReader(bytes, structure: "recorded frame")
        #expect(
            throws: WireError(
                .truncated(need: 7, have: 6),
                structure: "NAN Pairing Bootstrapping attribute (0x2c)",
                field: "Cookie",
                offset: 119
            )
        ) {
            _ = try ManagementFrame(from: &reader)
        }
    }
}

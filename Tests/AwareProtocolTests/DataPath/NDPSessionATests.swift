import AwareCore
import AwareCrypto
import AwareTestSupport
import AwareWire
import Testing

@testable import AwareProtocol

/// hostap session A, frames 22-25 (Data Path Request m1, Response m2, Confirm m3, Key
/// Installment m4; transcript.json "ndp"). The phone is the initiator, the accessory the
/// responder; both hostap peers were paired (CSID 7, ND-PMK from pairing).
@Suite struct NDPSessionATests {
    private typealias Fixture = SessionFixture

    private struct Inputs {
        var pmk: [UInt8]
        var iNonce: [UInt8]
        var rNonce: [UInt8]
        var tk: [UInt8]
        var frames: [Int: [UInt8]]
        var nafs: [Int: NANActionFrame]
    }

    private func inputs() throws -> Inputs {
        let t = try Fixture.transcript()
        var frames: [Int: [UInt8]] = [:]
        var nafs: [Int: NANActionFrame] = [:]
        for number in 22...25 {
            let bytes = try Fixture.frame(number)
            frames[number] = bytes
            nafs[number] = try #require(NDPTest.naf(bytes)?.frame)
        }
        #expect(try Fixture.bytes(t, "ndp.initiator_ndi") == NDPTest.phoneNDI.octets)
        #expect(try Fixture.bytes(t, "ndp.responder_ndi") == NDPTest.accessoryNDI.octets)
        #expect(try Fixture.bytes(t, "parameters.service_id") == NDPTest.serviceID.octets)
        return Inputs(
            pmk: try Fixture.bytes(t, "ndp.pmk"),
            iNonce: try Fixture.bytes(t, "ndp.inonce"),
            rNonce: try Fixture.bytes(t, "ndp.rnonce"),
            tk: try Fixture.bytes(t, "ndp.tk"),
            frames: frames,
            nafs: nafs
        )
    }

    /// Device Capability and DCEA are device attributes outside this machine: taken from the
    /// recording and written first, as hostap does (4.1).
    private func leading(_ frame: NANActionFrame?) -> [NANAttribute] {
        Array((frame?.attributes ?? []).prefix(2))
    }

    /// hostap's committed schedule in frame 22: channel 6 (op class 81, bitmap 0x0020), time
    /// bitmap control 0x0018 (16 TU bits, 512 TU period, offset 0), bitmap fe ff fe ff: every
    /// slot but 0 and 16.
    private let sessionSchedule = NDPSchedule(channel: .channel6, slots: (0..<32).filter { $0 != 0 && $0 != 16 })

    private func initiatorConfiguration(_ inputs: Inputs) -> NDPInitiatorConfiguration {
        NDPInitiatorConfiguration(
            localNMI: NDPTest.phoneNMI,
            localNDI: NDPTest.phoneNDI,
            peerNMI: NDPTest.accessoryNMI,
            clusterID: NDPTest.clusterID,
            publishID: 1,
            serviceID: NDPTest.serviceID,
            security: .pairing(ndPMK: inputs.pmk, suite: .ncsPKPASN128),
            proposal: sessionSchedule,
            qos: NDLQoSAttribute(minimumTimeSlots: 12, maximumLatency: 3),
            interfaceIdentifier: nil,
            dialogToken: 2,
            ndpID: 1,
            leadingAttributes: leading(inputs.nafs[22]),
            availabilityStyle: NDPAvailabilityStyle(sequenceID: 0x16)
        )
    }

    private func responderConfiguration(_ inputs: Inputs) -> NDPResponderConfiguration {
        NDPResponderConfiguration(
            localNMI: NDPTest.accessoryNMI,
            localNDI: NDPTest.accessoryNDI,
            clusterID: NDPTest.clusterID,
            availability: NDPSchedule(channel: .channel6, slots: Array(0..<32)),
            credentials: [NDPTest.phoneNMI: .pairing(ndPMK: inputs.pmk, suite: .ncsPKPASN128)],
            serviceIDs: [1: NDPTest.serviceID],
            leadingAttributes: leading(inputs.nafs[23]),
            availabilityStyle: NDPAvailabilityStyle(sequenceID: 0x17),
            // hostap's configured NDL QoS, which its Response carries (frame 23).
            qos: NDLQoSAttribute(minimumTimeSlots: 12, maximumLatency: 3)
        )
    }

    /// Our m1 is frame 22 octet for octet; the recorded m2 verifies; our m3 is frame 24 octet
    /// for octet (so its MIC, over the auth token of m1, is hostap's); the recorded m4 verifies
    /// and the link holds the transcript's TK.
    @Test func theInitiatorReplaysThePhoneSide() throws {
        let inputs = try inputs()
        var initiator = NDPInitiator(configuration: initiatorConfiguration(inputs), nonce: inputs.iNonce)
        let start = initiator.start(now: .zero)
        #expect(NDPTest.transmitted(start) == [try #require(inputs.frames[22])])

        let m2 = try #require(inputs.nafs[23])
        let afterM2 = initiator.handle(.received(m2, transmitter: NDPTest.accessoryNMI), now: .zero)
        #expect(NDPTest.failure(afterM2) == nil)
        #expect(NDPTest.transmitted(afterM2) == [try #require(inputs.frames[24])])

        let m4 = try #require(inputs.nafs[25])
        let afterM4 = initiator.handle(.received(m4, transmitter: NDPTest.accessoryNMI), now: .zero)
        let link = try #require(NDPTest.established(afterM4))
        #expect(link.tk == inputs.tk)
        #expect(link.cipher == .ccmp128)
        #expect(link.responderNDI == NDPTest.accessoryNDI)
        #expect(link.schedule.slots == sessionSchedule.slots)
        #expect(link.schedule.channel.number == 6)
        #expect(link.peerQoS == NDLQoSAttribute(minimumTimeSlots: 12, maximumLatency: 3))
        // hostap's Selected NDC in frame 23: NDC ID 21:c0:04:89:9e:a7, one schedule entry with
        // bitmap fe (16 TU bits from offset 0): slots 1-7, inside its committed slots.
        let ndc = try #require(link.ndc)
        #expect(ndc.id == MACAddress(0x21, 0xC0, 0x04, 0x89, 0x9E, 0xA7))
        #expect(ndc.schedule.slots == [1, 2, 3, 4, 5, 6, 7])
        #expect(ndc.schedule.channel.number == 6)
    }

    /// The recorded m1 is accepted; our m2 carries hostap's attributes in hostap's order, the
    /// same octets for all but the NDC (hostap draws its NDC ID at random and names slots 1-7;
    /// ours names slot 1, the first after the 2.4 GHz DW on channel 6) and, with it, the NDL
    /// (Control 0x0C: NDC and NDL QoS present, as hostap's); the recorded m3 verifies (MIC over
    /// the auth token of the recorded m1); our m4 is frame 25 octet for octet.
    @Test func theResponderReplaysTheAccessorySide() throws {
        let inputs = try inputs()
        let m1 = try #require(inputs.nafs[22])
        var responder = try #require(
            NDPResponder(
                configuration: responderConfiguration(inputs),
                request: m1,
                transmitter: NDPTest.phoneNMI,
                nonce: inputs.rNonce,
                now: .zero
            )
        )
        #expect(NDPTest.failure(responder.initialActions) == nil)
        let ours = try #require(NDPTest.transmitted(responder.initialActions).first.flatMap(NDPTest.naf)?.frame)
        let recorded = try #require(inputs.nafs[23])
        #expect(ours.attributes.map(\.id.rawValue) == [0x0F, 0x2A, 0x29, 0x22, 0x23, 0x24, 0x12, 0x13, 0x14, 0x15])
        #expect(recorded.attributes.map(\.id.rawValue) == [0x0F, 0x2A, 0x29, 0x22, 0x23, 0x24, 0x12, 0x13, 0x14, 0x15])
        let shared: [NANAttributeID] = [
            .deviceCapability, .deviceCapabilityExtension, .ndpExtension,
            .cipherSuiteInfo, .securityContextInfo, .availability, .ndl, .ndlQoS,
        ]
        for id in shared {
            #expect(ours.attributes.first { $0.id == id } == recorded.attributes.first { $0.id == id }, "\(id)")
        }
        let ourKey = try #require(sharedKey(ours)?.keyDescriptor)
        var recordedKey = try #require(sharedKey(recorded)?.keyDescriptor)
        recordedKey.mic = ourKey.mic
        #expect(ourKey == recordedKey)
        let ndl = try #require(ours.attributes.lazy.compactMap { if case .ndl(let v) = $0 { v } else { nil } }.first)
        #expect(ndl.attributeBytes == HexString.decode("140400 0211000C"))
        // NDC: ID 6 | control 01 (Selected) | Map ID 00 | time bitmap control 0x0018 (16 TU,
        // 512 TU) | length 4 | slot 1 = bit 1 of octet 0. The ID is the RNonce's last six
        // octets, made individual and locally administered.
        let ndc = try #require(ours.attributes.lazy.compactMap { if case .ndc(let v) = $0 { v } else { nil } }.first)
        let id = NDCSchedule.identifier(random: Array(inputs.rNonce.suffix(6))).octets
        #expect(
            ndc.attributeBytes == [0x13, 0x0F, 0x00] + id + [0x01, 0x00, 0x18, 0x00, 0x04, 0x02, 0x00, 0x00, 0x00]
        )

        let m3 = try #require(inputs.nafs[24])
        let afterM3 = responder.handle(.received(m3, transmitter: NDPTest.phoneNMI), now: .zero)
        #expect(NDPTest.transmitted(afterM3) == [try #require(inputs.frames[25])])
        let link = try #require(NDPTest.established(afterM3))
        #expect(link.tk == inputs.tk)
        #expect(link.peerNMI == NDPTest.phoneNMI)
        #expect(link.initiatorNDI == NDPTest.phoneNDI)
    }

    /// One flipped bit in the recorded Key MIC of m2, m3 or m4 and the exchange fails.
    @Test func aTamperedRecordedMICFails() throws {
        let inputs = try inputs()
        var initiator = NDPInitiator(configuration: initiatorConfiguration(inputs), nonce: inputs.iNonce)
        _ = initiator.start(now: .zero)
        let m2 = try tamperedMIC(try #require(inputs.nafs[23]))
        let actions = initiator.handle(.received(m2, transmitter: NDPTest.accessoryNMI), now: .zero)
        #expect(NDPTest.failure(actions)?.kind == .micMismatch(message: 2))
        #expect(NDPTest.transmitted(actions).isEmpty)

        let recordedM1 = try #require(inputs.nafs[22])
        var responder = try #require(
            NDPResponder(
                configuration: responderConfiguration(inputs),
                request: recordedM1,
                transmitter: NDPTest.phoneNMI,
                nonce: inputs.rNonce,
                now: .zero
            )
        )
        let m3 = try tamperedMIC(try #require(inputs.nafs[24]))
        let afterM3 = responder.handle(.received(m3, transmitter: NDPTest.phoneNMI), now: .zero)
        #expect(NDPTest.failure(afterM3)?.kind == .micMismatch(message: 3))
        #expect(NDPTest.established(afterM3) == nil)

        var secure = NDPInitiator(configuration: initiatorConfiguration(inputs), nonce: inputs.iNonce)
        _ = secure.start(now: .zero)
        let recordedM2 = try #require(inputs.nafs[23])
        _ = secure.handle(.received(recordedM2, transmitter: NDPTest.accessoryNMI), now: .zero)
        let m4 = try tamperedMIC(try #require(inputs.nafs[25]))
        let afterM4 = secure.handle(.received(m4, transmitter: NDPTest.accessoryNMI), now: .zero)
        #expect(NDPTest.failure(afterM4)?.kind == .micMismatch(message: 4))
        #expect(NDPTest.established(afterM4) == nil)
    }

    private func sharedKey(_ frame: NANActionFrame) -> SharedKeyDescriptorAttribute? {
        frame.attributes.lazy.compactMap { if case .sharedKeyDescriptor(let v) = $0 { v } else { nil } }.first
    }

    private func tamperedMIC(_ frame: NANActionFrame) throws -> NANActionFrame {
        var tampered = frame
        tampered.attributes = frame.attributes.map { attribute in
            guard case .sharedKeyDescriptor(var sharedKey) = attribute else { return attribute }
            sharedKey.keyDescriptor.mic[0] ^= 0x01
            return .sharedKeyDescriptor(sharedKey)
        }
        return tampered
    }
}

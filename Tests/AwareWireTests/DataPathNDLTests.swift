import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

@Suite struct DataPathNDLTests {
    // nan-wire-reference.md 2.9: token 5, type 1 (Response) | status 1 (Accepted) << 4 = 0x11,
    // reason 0, control 0x1b (Peer ID, Immutable Schedule, QoS, Max Idle Period), then in
    // order Peer ID 7, Max Idle Period 0x0100, one schedule entry (map 0, TBC 0x0018, 1, 0x0f).
    @Test func ndlOptionalFieldsInReferenceOrderGolden() throws {
        let expected = hex("14 0c 00 05 11 00 1b 07 00 01 00 18 00 01 0f")
        let ndl = NDLAttribute(
            dialogToken: 5,
            type: .response,
            status: .accepted,
            ndlControl: 0x08,
            peerID: 7,
            maxIdlePeriod: 0x0100,
            immutableSchedule: [
                ScheduleEntry(
                    mapIDField: 0,
                    timeBitmap: TimeBitmap(control: TimeBitmapControl(rawValue: 0x18), bitmap: [0x0F])
                )
            ]
        )
        #expect(ndl.attributeBytes == expected)
        let parsed = try NDLAttribute(attributeBytes: expected)
        #expect(parsed == ndl)
        #expect(parsed.ndlQoSAttributePresent)
        #expect(!parsed.ndcAttributePresent)
        #expect(parsed.setupReason == 0)
        #expect(!parsed.isPagingNDL)
    }

    @Test func ndlRoundTripKeepsReservedTypeAndSetupReason() throws {
        // Type 0xf (reserved), status 0xe (reserved), reason 11, control 0xe4 (NDC present,
        // P-NDL bit, setup reason 3).
        let bytes = hex("14 04 00 09 ef 0b e4")
        let ndl = try NDLAttribute(attributeBytes: bytes)
        #expect(ndl.type == .reserved(0x0F))
        #expect(ndl.status == .reserved(0x0E))
        #expect(ndl.reasonCode == .ndlUnacceptable)
        #expect(ndl.ndcAttributePresent)
        #expect(ndl.isPagingNDL)
        #expect(ndl.setupReason == 3)
        #expect(ndl.attributeBytes == bytes)
    }

    @Test func ndlMaxIdlePeriodTruncated() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "NDL attribute",
                field: "Max Idle Period",
                offset: 7
            )
        ) {
            _ = try NDLAttribute(attributeBytes: hex("14 05 00 00 00 00 10 ff"))
        }
    }

    @Test func ndlOctetsWithoutPresenceBits() {
        #expect(throws: WireError(.trailingOctets(count: 1), structure: "NDL attribute", offset: 7)) {
            _ = try NDLAttribute(attributeBytes: hex("14 05 00 00 00 00 00 07"))
        }
    }

    // 2.2 / hostap `struct ieee80211_nan_qos`: min slots 4, max latency 0xffff = no preference.
    @Test func ndlQoSGolden() throws {
        let qos = NDLQoSAttribute(minimumTimeSlots: 4, maximumLatency: NDLQoSAttribute.noPreferenceMaximumLatency)
        #expect(qos.attributeBytes == hex("15 03 00 04 ff ff"))
        #expect(!qos.hasLatencyPreference)
        #expect(
            qos.decodedFields.last == DecodedField("maximumLatency", "Maximum Latency", .named(0xFFFF, "No preference"))
        )
        let parsed = try NDLQoSAttribute(attributeBytes: hex("15 03 00 0c 03 00"))
        #expect(parsed.minimumTimeSlots == 12)
        #expect(parsed.maximumLatency == 3)
        #expect(parsed.hasLatencyPreference)
    }

    @Test func ndlQoSMalformed() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "NDL QoS attribute",
                field: "Maximum Latency",
                offset: 4
            )
        ) {
            _ = try NDLQoSAttribute(attributeBytes: hex("15 02 00 04 ff"))
        }
        #expect(throws: WireError(.trailingOctets(count: 1), structure: "NDL QoS attribute", offset: 6)) {
            _ = try NDLQoSAttribute(attributeBytes: hex("15 04 00 04 ff ff 00"))
        }
    }
}

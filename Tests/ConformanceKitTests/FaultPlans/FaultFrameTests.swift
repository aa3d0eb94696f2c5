import AwareRadio
import AwareWire
import ConformanceKit
import Testing

/// Frame kinds and field positions against frames written out octet by octet here, from the
/// layouts in nan-wire-reference.md and IEEE 802.11-2020.
@Suite struct FaultFrameTests {
    static let phone: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x01]
    static let accessory: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x02]

    /// Frame Control, Duration, A1, A2, A3, Sequence Control (24 octets).
    static func header(_ frameControl: UInt8, to receiver: [UInt8] = accessory) -> [UInt8] {
        [frameControl, 0x00, 0x00, 0x00] + receiver + phone + [0x50, 0x6F, 0x9A, 0x01, 0x00, 0x00] + [0x00, 0x00]
    }

    /// A Publish SDF: Action header (Category 4, Action 9, OUI 50-6F-9A, type 0x13), then an
    /// SDA (ID 0x03, Length 9: Service ID, Instance 1, Requestor 0, Control 0 = publish) and an
    /// NPBA (ID 0x2C, Length 5: token 0, Advertise/Accepted, reason 0, methods 0x0002).
    static let publish: [UInt8] =
        header(0xD0, to: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) + [0x04, 0x09, 0x50, 0x6F, 0x9A, 0x13]
        + [0x03, 0x09, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x01, 0x00, 0x00]
        + [0x2C, 0x05, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00]

    /// PASN frame 2: Authentication (subtype 11), algorithm 7, sequence 2, status 0, then a MIC
    /// element (ID 140, Length 4 here).
    static let pasn2: [UInt8] =
        header(0xB0) + [0x07, 0x00, 0x02, 0x00, 0x00, 0x00] + [0x8C, 0x04, 0xA1, 0xA2, 0xA3, 0xA4]

    @Test func kindsFollowTheFrameControlAndTheBody() {
        #expect(FaultFrameKind.kinds(of: Self.publish) == [.any, .sdf, .publish])
        #expect(FaultFrameKind.kinds(of: Self.pasn2) == [.any, .pasn, .pasn2])
        // A QoS Data frame: type 2 in Frame Control.
        #expect(FaultFrameKind.kinds(of: [0x88, 0x00] + Array(repeating: 0, count: 24)) == [.any, .data])
        // The Protected bit set on an action frame.
        #expect(FaultFrameKind.kinds(of: [0xD0, 0x40] + Array(Self.publish.dropFirst(2))).contains(.protected))
        #expect(FaultFrameKind.kinds(of: [0xD0]).isEmpty)
    }

    @Test func fieldsSitWhereTheLayoutsPutThem() throws {
        func field(_ attribute: String, _ name: String) throws -> FaultField {
            try #require(FaultField.named(attribute: attribute, field: name))
        }
        // Attributes start at 30 in an SDF; the SDA body at 33.
        #expect(try field("service-descriptor", "service-id").locate(in: Self.publish) == 33..<39)
        #expect(try field("service-descriptor", "instance-id").locate(in: Self.publish) == 39..<40)
        // The NPBA follows the SDA (30 + 3 + 9 = 42); its methods close its 5-octet body.
        #expect(try field("pairing-bootstrapping", "methods").locate(in: Self.publish) == 48..<50)
        #expect(try field("pairing-bootstrapping", "type-and-status").locate(in: Self.publish) == 46..<47)
        // Authentication fixed fields follow the header; the MIC element's body is the MIC.
        #expect(try field("authentication", "status-code").locate(in: Self.pasn2) == 28..<30)
        #expect(try field("authentication", "transaction-sequence").locate(in: Self.pasn2) == 26..<28)
        #expect(try field("mic", "mic").locate(in: Self.pasn2) == 32..<36)
        // Absent attributes, a second occurrence, and frames of another kind: nothing to change.
        #expect(try field("identity-resolution", "tag").locate(in: Self.publish) == nil)
        #expect(try field("service-descriptor", "service-id").locate(in: Self.publish, occurrence: 2) == nil)
        #expect(try field("authentication", "status-code").locate(in: Self.publish) == nil)
    }

    @Test func aLyingLengthNeverReachesPastTheFrame() throws {
        let field = try #require(FaultField.named(attribute: "pairing-bootstrapping", field: "methods"))
        var frame = Self.publish
        frame[43] = 0xF0  // the NPBA claims 240 octets
        #expect(field.locate(in: frame) == nil)
        for cut in 0..<Self.publish.count {
            if let range = field.locate(in: Array(Self.publish.prefix(cut))) { #expect(range.upperBound <= cut) }
        }
    }
}

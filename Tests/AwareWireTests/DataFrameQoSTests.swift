import AwareCore
import AwareFuzzing
import Testing

@testable import AwareWire

/// The golden NAN data frame of these suites, built by hand from IEEE 802.11-2020 9.3.2.1,
/// IEEE 802.2 / RFC 1042, RFC 8200 and RFC 768: own NDI 02:a0:00:00:00:01 sends "hello" from
/// UDP port 5000 to port 7000 of peer NDI 02:b0:00:00:00:02, as voice (TID 6, DSCP EF), in
/// cluster 50:6f:9a:01:12:34, sequence number 5.
enum DataFrameGolden {
    static let ownNDI = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)
    static let peerNDI = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02)
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)

    /// FC 88 00 (Type 2, Subtype 8), Duration 0, A1 peer NDI, A2 own NDI, A3 Cluster ID,
    /// Sequence Control 50 00 (SN 5 << 4), QoS Control 06 00 (TID 6, Normal Ack).
    static let header = FrameTestSupport.hex("8800 0000 02b000000002 02a000000001 506f9a011234 5000 0600")
    static let llcSNAP = FrameTestSupport.hex("aaaa03 000000 86dd")
    /// Version 6, Traffic Class 0xb8 (EF 46 << 2), Flow Label 0: 6b 80 00 00. Payload Length
    /// 13, Next Header 17, Hop Limit 255; fe80::a0:ff:fe00:1 → fe80::b0:ff:fe00:2 (modified
    /// EUI-64 of each NDI: U/L bit 0x02 flipped, ff fe inserted). UDP 5000 (13 88) → 7000
    /// (1b 58), Length 13, checksum 90 cd, computed independently:
    ///
    ///     import struct
    ///     src = bytes.fromhex("fe80000000000000" "00a000fffe000001")
    ///     dst = bytes.fromhex("fe80000000000000" "00b000fffe000002")
    ///     data = src + dst + struct.pack(">I", 13) + b"\0\0\0\x11"
    ///     data += struct.pack(">HHHH", 5000, 7000, 13, 0) + b"hello" + b"\0"
    ///     s = sum(struct.unpack(">%dH" % (len(data) // 2), data))
    ///     while s > 0xffff: s = (s & 0xffff) + (s >> 16)
    ///     print(hex(~s & 0xffff))  # 0x90cd
    static let ipv6UDP = FrameTestSupport.hex(
        "6b800000 000d 11 ff"
            + "fe80000000000000 00a000fffe000001"
            + "fe80000000000000 00b000fffe000002"
            + "1388 1b58 000d 90cd" + "68656c6c6f"
    )
    static let frame = header + llcSNAP + ipv6UDP
}

@Suite struct DataFrameQoSTests {
    @Test func goldenFrameParses() throws {
        let frame = try QoSDataFrame(bytes: DataFrameGolden.frame)
        #expect(frame.frameControl.rawValue == 0x0088)
        #expect(frame.frameControl.type == .data && frame.frameControl.subtype == 8)
        #expect(!frame.isProtected)
        #expect(frame.receiver == DataFrameGolden.peerNDI)
        #expect(frame.transmitter == DataFrameGolden.ownNDI)
        #expect(frame.clusterID == DataFrameGolden.clusterID)
        #expect(frame.sequenceControl.sequenceNumber == 5)
        #expect(frame.tid == 6 && frame.qosControl.ackPolicy == .normalAck)
        #expect(frame.htControl == nil)
        #expect(frame.body == DataFrameGolden.llcSNAP + DataFrameGolden.ipv6UDP)
    }

    @Test func goldenFrameIsBuiltFromValues() {
        let frame = QoSDataFrame(
            receiver: DataFrameGolden.peerNDI,
            transmitter: DataFrameGolden.ownNDI,
            clusterID: DataFrameGolden.clusterID,
            sequenceControl: SequenceControl(sequenceNumber: 5),
            qosControl: QoSControl(tid: 6),
            body: DataFrameGolden.llcSNAP + DataFrameGolden.ipv6UDP
        )
        #expect(frame.wireBytes == DataFrameGolden.frame)
    }

    @Test func roundTripKeepsEveryBit() throws {
        // Protected, Retry, +HTC/Order (so HT Control follows QoS Control), a QoS Control with
        // EOSP, Block Ack policy, A-MSDU present and upper octet 0x5a, a non-zero Duration.
        let bytes = FrameTestSupport.hex(
            "88c8 2c00 02b000000002 02a000000001 506f9a011234 3412 f05a 78563412 0102030405"
        )
        let frame = try QoSDataFrame(bytes: bytes)
        #expect(frame.isProtected && frame.frameControl.retry && frame.frameControl.htcOrder)
        #expect(frame.duration == 44)
        #expect(frame.qosControl.tid == 0 && frame.qosControl.eosp && frame.qosControl.amsduPresent)
        #expect(frame.qosControl.ackPolicy == .blockAck && frame.qosControl.upperOctet == 0x5A)
        #expect(frame.htControl == 0x1234_5678)
        #expect(frame.body == [1, 2, 3, 4, 5])
        #expect(frame.wireBytes == bytes)
    }

    @Test func qosControlSubfields() {
        #expect(QoSControl(tid: 5, ackPolicy: .noAck, eosp: true, amsduPresent: true).rawValue == 0x00B5)
        #expect(QoSControl(rawValue: 0xAB47).tid == 7)
        #expect(QoSControl(rawValue: 0xAB47).ackPolicy == .noExplicitAck)
        #expect(QoSControl(rawValue: 0xAB47).upperOctet == 0xAB)
        #expect(FrameControl.qosData(protected: true).wireBytes == [0x88, 0x40])
    }

    @Test func decodedFieldsNameEverySubfield() throws {
        let frame = try QoSDataFrame(bytes: DataFrameGolden.frame)
        let keys = frame.decodedFields.map(\.key)
        #expect(
            keys == [
                "frameControl", "duration", "address1", "address2", "address3", "sequenceControl", "qosControl",
                "frameBody",
            ]
        )
        let qos = frame.qosControl.decodedFields
        #expect(qos.first { $0.key == "tid" }?.value == .unsigned(6))
        #expect(qos.first { $0.key == "ackPolicy" }?.value == .named(0, "Normal Ack"))
    }

    @Test func reachableFromIEEE80211Frame() throws {
        let frame = try IEEE80211Frame(bytes: DataFrameGolden.frame)
        #expect(frame.managementFrame == nil)
        #expect(try frame.qosDataFrame() == QoSDataFrame(bytes: DataFrameGolden.frame))
        // A management frame is not a QoS Data frame.
        #expect(try IEEE80211Frame(bytes: FrameTestSupport.goldenSDF).qosDataFrame() == nil)
    }

    @Test func aManagementFrameIsRefused() {
        #expect(
            throws: WireError(
                .invalidValue("Type 0 Subtype 13 is not QoS Data (Type 2, Subtype 8)"),
                structure: "QoS Data frame",
                field: "Frame Control",
                offset: 0
            )
        ) {
            try QoSDataFrame(bytes: FrameTestSupport.goldenSDF)
        }
    }

    @Test func aFourAddressFrameIsRefused() {
        var bytes = DataFrameGolden.frame
        bytes[1] = 0x03
        #expect(
            throws: WireError(
                .invalidValue("To DS and From DS both set: a four-address frame is not supported"),
                structure: "QoS Data frame",
                field: "Frame Control",
                offset: 0
            )
        ) {
            try QoSDataFrame(bytes: bytes)
        }
    }

    @Test func aTruncatedQoSControlIsRefused() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "QoS Data frame",
                field: "QoS Control",
                offset: 24
            )
        ) {
            try QoSDataFrame(bytes: DataFrameGolden.header.prefix(25))
        }
    }

    @Test func aMissingHTControlIsRefused() {
        var bytes = DataFrameGolden.header
        bytes[1] = 0x80
        #expect(
            throws: WireError(
                .truncated(need: 4, have: 0),
                structure: "QoS Data frame",
                field: "HT Control",
                offset: 26
            )
        ) {
            try QoSDataFrame(bytes: bytes)
        }
    }
}

@Suite struct DataFrameRobustnessTests {
    /// Mutations of the golden frame and of its IPv6 packet: every one is rejected with a
    /// WireError or parses to a value that writes back to exactly the same octets.
    @Test func mutatedDataFramesRoundTripOrAreRejected() {
        var mutator = FrameMutator(corpus: [DataFrameGolden.frame, DataFrameGolden.ipv6UDP], seed: 5)
        var parsed = 0
        for _ in 0..<20_000 {
            let bytes = mutator.next()
            if let frame = try? QoSDataFrame(bytes: bytes) {
                parsed += 1
                #expect(frame.wireBytes == bytes)
                _ = frame.decodedFields
            }
            if let packet = try? IPv6UDPPacket(wireBytes: bytes, structure: IPv6UDPPacket.structureName) {
                parsed += 1
                #expect(packet.wireBytes == bytes)
                _ = packet.decodedFields
            }
            var reader = WireReader(bytes, structure: LLCSNAPHeader.structureName)
            if let header = try? LLCSNAPHeader(from: &reader) {
                #expect(header.wireBytes == Array(bytes.prefix(LLCSNAPHeader.length)))
            }
        }
        #expect(parsed > 0)
    }
}

import AwareCore
import AwareTestSupport
import AwareWire
import Testing

@testable import AwareRadio

/// The header layout of docs/reference/socket-air.md, with every expected byte written by hand.
@Suite struct SocketAirDatagramTests {
    /// A broadcast SDF-shaped frame on channel 6 (2437 = 0x0985 MHz) at 20 dBm (0x14),
    /// timestamp 0x0102030405060708, cookie 42, from 02:a0:00:00:00:01.
    static let frameBytes = hex(
        """
        41 57 42 31  01  01  00 00  85 09  14  00
        08 07 06 05 04 03 02 01
        2a 00 00 00 00 00 00 00
        02 a0 00 00 00 01
        d0 00 00 00 ff ff ff ff ff ff 02 a0 00 00 00 01 51 6f 9a 01 00 00 00 00 04 09
        """
    )

    static let frame = SocketAirDatagram(
        type: .frame,
        frequencyMHz: 2437,
        signalDBm: 20,
        timestamp: 0x0102_0304_0506_0708,
        cookie: 42,
        address: MACAddress(0x02, 0xA0, 0, 0, 0, 1),
        payload: hex("d0 00 00 00 ff ff ff ff ff ff 02 a0 00 00 00 01 51 6f 9a 01 00 00 00 00 04 09")
    )

    /// An acknowledgement (flags bit 0) on channel 149 (5745 = 0x1671 MHz), at 1 s
    /// (0x3B9ACA00 ns), for cookie 0xfedcba9876543210, from 02:b0:00:00:00:02.
    static let txStatusBytes = hex(
        """
        41 57 42 31  01  02  01 00  71 16  00  00
        00 ca 9a 3b 00 00 00 00
        10 32 54 76 98 ba dc fe
        02 b0 00 00 00 02
        """
    )

    @Test func frameEncodesToTheDocumentedBytes() {
        #expect(Self.frame.bytes == Self.frameBytes)
        #expect(Self.frameBytes.count == SocketAirDatagram.headerLength + 26)
    }

    @Test func frameDecodesFromTheDocumentedBytes() throws {
        let datagram = try SocketAirDatagram(bytes: Self.frameBytes)
        #expect(datagram == Self.frame)
        #expect(!datagram.signalIsRSSI)
    }

    @Test func txStatusRoundTrips() throws {
        let datagram = try SocketAirDatagram(bytes: Self.txStatusBytes)
        #expect(datagram.type == .txStatus)
        #expect(datagram.acknowledged)
        #expect(datagram.frequencyMHz == 5745)
        #expect(datagram.timestamp == 1_000_000_000)
        #expect(datagram.cookie == 0xFEDC_BA98_7654_3210)
        #expect(datagram.address == MACAddress(0x02, 0xB0, 0, 0, 0, 2))
        #expect(datagram.payload.isEmpty)
        #expect(datagram.bytes == Self.txStatusBytes)
    }

    /// RSSI flag, a negative signal (-60 dBm = 0xc4), and reserved flag bits and octet that
    /// must survive decode → encode unchanged.
    @Test func reservedBitsAndNegativeSignalSurviveARoundTrip() throws {
        let bytes = hex(
            """
            41 57 42 31  01  01  05 80  71 16  c4  7e
            00 00 00 00 00 00 00 00
            01 00 00 00 00 00 00 00
            02 a0 00 00 00 01
            c0 ff
            """
        )
        let datagram = try SocketAirDatagram(bytes: bytes)
        #expect(datagram.signalIsRSSI)
        #expect(datagram.signalDBm == -60)
        #expect(datagram.flags == 0x8005)
        #expect(datagram.reserved == 0x7E)
        #expect(datagram.bytes == bytes)
    }

    @Test func unknownTypesAndEventsDecode() throws {
        var bytes = Self.txStatusBytes
        bytes[5] = 3
        #expect(try SocketAirDatagram(bytes: bytes).type == .event)
        bytes[5] = 0x99
        #expect(try SocketAirDatagram(bytes: bytes).type == SocketAirMessageType(rawValue: 0x99))
    }

    @Test func shortHeaderIsRejected() {
        let bytes = Array(Self.txStatusBytes.prefix(30))
        #expect(
            throws: WireError(
                .truncated(need: 6, have: 2),
                structure: "socket air datagram",
                field: "Address",
                offset: 28
            )
        ) {
            try SocketAirDatagram(bytes: bytes)
        }
        #expect(
            throws: WireError(.truncated(need: 4, have: 0), structure: "socket air datagram", field: "Magic", offset: 0)
        ) {
            try SocketAirDatagram(bytes: [])
        }
    }

    @Test func badMagicIsRejected() {
        var bytes = Self.frameBytes
        bytes[3] = 0x32
        #expect(
            throws: WireError(
                .invalidValue("magic is not \"AWB1\""),
                structure: "socket air datagram",
                field: "Magic",
                offset: 0
            )
        ) {
            try SocketAirDatagram(bytes: bytes)
        }
    }

    @Test func unknownVersionIsRejected() {
        var bytes = Self.frameBytes
        bytes[4] = 2
        #expect(
            throws: WireError(
                .invalidValue("unknown version 2"),
                structure: "socket air datagram",
                field: "Version",
                offset: 4
            )
        ) {
            try SocketAirDatagram(bytes: bytes)
        }
    }

    @Test func framesWithoutAnIndividualA1NeedNoAcknowledgement() {
        #expect(SocketAir.receiverAddress(of: Self.frame.payload) == nil)
        #expect(SocketAir.receiverAddress(of: hex("d0 00 00 00 02 b0 00 00")) == nil)
        #expect(
            SocketAir.receiverAddress(of: hex("d0 00 00 00 02 b0 00 00 00 02 02 a0 00 00 00 01"))
                == MACAddress(0x02, 0xB0, 0, 0, 0, 2)
        )
        #expect(SocketAir.transmitterAddress(of: Self.frame.payload) == MACAddress(0x02, 0xA0, 0, 0, 0, 1))
    }
}

import AwareCore
import Testing

@testable import AwareWire

private func bytes(_ hex: String) -> [UInt8] { HexString.decode(hex)! }

/// Every encoding of nan-wire-reference.md 2.18 "Encodings seen in code", plus ESP-IDF's.
@Suite struct PairingBootstrappingDiscoveryAttributeTests {
    private let cookie: [UInt8] = [0x1B, 0x12, 0x26, 0x03]

    private func check(_ hex: String, _ expected: PairingBootstrappingAttribute) throws {
        let wire = bytes(hex)
        #expect(expected.attributeBytes == wire, "\(hex)")
        #expect(try PairingBootstrappingAttribute(attributeBytes: wire) == expected, "\(hex)")
    }

    @Test func advertise() throws {
        // 2C 05 00 | 00 | 00 | 00 | pbm LE16 (PIN display)
        try check(
            "2c 0500 00 00 00 0200",
            PairingBootstrappingAttribute(dialogToken: 0, type: .advertise, status: .accepted, methods: .pinCodeDisplay)
        )
    }

    @Test func request() throws {
        // 2C 05 00 | token | 01 | 00 | pbm (PIN keypad)
        try check(
            "2c 0500 01 01 00 2000",
            PairingBootstrappingAttribute(dialogToken: 1, type: .request, status: .accepted, methods: .pinCodeKeypad)
        )
    }

    @Test func requestComebackRetry() throws {
        // 2C len | token | 0x21 | 00 | cookie_len | cookie | pbm — no Comeback After in a Request.
        try check(
            "2c 0a00 01 21 00 04 1b122603 2000",
            PairingBootstrappingAttribute(
                dialogToken: 1,
                type: .request,
                status: .comeback,
                cookie: cookie,
                methods: .pinCodeKeypad
            )
        )
    }

    @Test func responseAccepted() throws {
        // 2C 05 00 | token | 02 | 00 | pbm
        try check(
            "2c 0500 01 02 00 0200",
            PairingBootstrappingAttribute(dialogToken: 1, type: .response, status: .accepted, methods: .pinCodeDisplay)
        )
    }

    @Test func responseComeback() throws {
        // ... | 0x22 | 00 | comeback_after LE16 (200 TU = c8 00) | cookie_len | cookie | pbm 0
        let expected = PairingBootstrappingAttribute(
            dialogToken: 1,
            type: .response,
            status: .comeback,
            comebackAfter: 200,
            cookie: cookie,
            methods: []
        )
        try check("2c 0c00 01 22 00 c800 04 1b122603 0000", expected)
        #expect(expected.typeAndStatus == 0x22)
    }

    @Test func responseRejected() throws {
        // ... | 0x12 | 0x0D (PAIR_BOOTSTRAP_REJECTED) | 00 00
        try check(
            "2c 0500 01 12 0d 0000",
            PairingBootstrappingAttribute(
                dialogToken: 1,
                type: .response,
                status: .rejected,
                reasonCode: 13,
                methods: []
            )
        )
    }

    @Test func espIDFHardCodedResponse() throws {
        // ESP-IDF PASN NAN element: 2C 05 00 90 02 00 02 00 (token 0x90, Response/Accepted, PIN display).
        try check(
            "2c 0500 90 02 00 0200",
            PairingBootstrappingAttribute(
                dialogToken: 0x90,
                type: .response,
                status: .accepted,
                methods: .pinCodeDisplay
            )
        )
    }

    @Test func reservedTypeAndStatusRoundTrip() throws {
        let wire = bytes("2c 0500 07 f3 00 0080")
        let npba = try PairingBootstrappingAttribute(attributeBytes: wire)
        #expect(npba.type == .reserved(3))
        #expect(npba.status == .reserved(15))
        #expect(npba.methods == .handshakesSkipped)
        #expect(npba.attributeBytes == wire)
    }

    @Test func comebackFieldsAreIgnoredUnlessStatusIsComeback() {
        let npba = PairingBootstrappingAttribute(
            dialogToken: 1,
            type: .response,
            status: .accepted,
            comebackAfter: 5,
            cookie: [1],
            methods: .pinCodeDisplay
        )
        #expect(npba.attributeBytes == bytes("2c 0500 01 02 00 0200"))
    }

    @Test func truncatedCookie() {
        #expect(
            throws: WireError(
                .truncated(need: 4, have: 1),
                structure: "NAN Pairing Bootstrapping attribute",
                field: "Cookie",
                offset: 9
            )
        ) {
            _ = try PairingBootstrappingAttribute(attributeBytes: bytes("2c 0700 01 22 00 c800 04 1b"))
        }
    }

    @Test func shorterThanFiveOctets() {
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "NAN Pairing Bootstrapping attribute",
                field: "Pairing Bootstrapping Method",
                offset: 6
            )
        ) {
            _ = try PairingBootstrappingAttribute(attributeBytes: bytes("2c 0400 00 00 00 02"))
        }
    }

    @Test func describesMethodBits() {
        let npba = PairingBootstrappingAttribute(
            dialogToken: 0,
            type: .advertise,
            status: .accepted,
            methods: [.pinCodeDisplay, .opportunistic]
        )
        let fields = Dictionary(uniqueKeysWithValues: npba.decodedFields.map { ($0.key, $0.value) })
        #expect(fields["pairingBootstrappingMethods"] == .bits(0x0003, digits: 4))
        #expect(fields["pinCodeDisplay"] == .flag(true))
        #expect(fields["pinCodeKeypad"] == .flag(false))
        #expect(fields["type"] == .named(0, "Advertise"))
        #expect(fields["cookie"] == nil)
    }
}

@Suite struct BootstrappingMethodsTests {
    @Test func masksFollowTheTable() {
        let masks: [UInt16] = BootstrappingMethods.named.map(\.method.rawValue)
        #expect(
            masks == [
                0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0040, 0x0080,
                0x0100, 0x0200, 0x0400, 0x0800, 0x1000, 0x2000, 0x4000, 0x8000,
            ]
        )
        #expect(BootstrappingMethods.reserved.rawValue == 0x3E00)
        #expect(Set(BootstrappingMethods.named.map(\.key)).count == 16)
    }

    @Test func complementSwapsDisplayAndInput() {
        #expect(BootstrappingMethods.pinCodeDisplay.complement == .pinCodeKeypad)
        #expect(BootstrappingMethods.pinCodeKeypad.complement == .pinCodeDisplay)
        // hostap test_nan_bootstrap_password: publisher 0x0004, subscriber 0x0040.
        #expect(BootstrappingMethods(rawValue: 0x0004).complement.rawValue == 0x0040)
        // opportunistic 0x0001 + QR display 0x0008 + NFC reader 0x0100 -> 0x0001 + QR scan 0x0080 + NFC tag 0x0010.
        #expect(BootstrappingMethods(rawValue: 0x0109).complement.rawValue == 0x0091)
        #expect(BootstrappingMethods(rawValue: 0xFE00).complement.rawValue == 0xFE00)
    }

    @Test func complementIsAnInvolution() {
        let failures = (UInt16.min...UInt16.max).filter { raw in
            let methods = BootstrappingMethods(rawValue: raw)
            return methods.complement.complement != methods
                || methods.complement.rawValue.nonzeroBitCount != raw.nonzeroBitCount
        }
        #expect(failures.isEmpty)
    }
}

import AwareTestSupport
import Testing

@testable import AwareCrypto

/// A peer commit or confirm that must be refused (issue 4, "Hostile input is refused";
/// IEEE 802.11-2020 12.4.5.4). The session is the accessory of hostap session A after its
/// commit, so the honest peer values are the phone's.
@Suite struct SAEHostileInputTests {
    static let order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    static let orderPlusOne = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552")
    static let allOnes = [UInt8](repeating: 0xff, count: 32)

    private func committedAccessory() throws -> (SAESession, SAETranscript) {
        let transcript = try SAETranscript()
        var sae = try SAESession(
            curve: .p256,
            password: Array("482915".utf8),
            ownAddress: hex("02a000000001"),
            peerAddress: hex("02b000000002")
        )
        _ = try sae.commit(rand: transcript.bytes("accessory.rand"), mask: transcript.bytes("accessory.mask"))
        return (sae, transcript)
    }

    private static func small(_ value: UInt8) -> [UInt8] { [UInt8](repeating: 0, count: 31) + [value] }

    @Test(arguments: [small(0), small(1), order, orderPlusOne, allOnes])
    func peerScalarOutsideTheOpenRangeIsRefused(scalar: [UInt8]) throws {
        var (sae, transcript) = try committedAccessory()
        #expect(throws: SAEError.invalidPeerScalar(reason: "must be in (1, r)")) {
            try sae.process(peerScalar: scalar, peerElement: transcript.point("phone.commit_element"))
        }
        #expect(sae.keys == nil)
    }

    @Test func peerScalarTwoIsTheSmallestAccepted() throws {
        var (sae, transcript) = try committedAccessory()
        try sae.process(peerScalar: Self.small(2), peerElement: transcript.point("phone.commit_element"))
        #expect(sae.keys != nil)
    }

    @Test func truncatedOrOversizedScalarIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        let scalar = try transcript.bytes("phone.commit_scalar")
        #expect(throws: SAEError.invalidPeerScalar(reason: "must be 32 octets, got 31")) {
            try sae.process(peerScalar: Array(scalar.dropLast()), peerElement: transcript.point("phone.commit_element"))
        }
        #expect(throws: SAEError.invalidPeerScalar(reason: "must be 32 octets, got 33")) {
            try sae.process(peerScalar: [0] + scalar, peerElement: transcript.point("phone.commit_element"))
        }
    }

    @Test func elementOffTheCurveIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        var element = try transcript.point("phone.commit_element")
        element[63] ^= 0x01
        #expect(throws: SAEError.invalidPeerElement(.pointNotOnCurve(curve: .p256))) {
            try sae.process(peerScalar: transcript.bytes("phone.commit_scalar"), peerElement: element)
        }
    }

    /// x || y cannot encode the point at infinity; the all-zero encoding some stacks use for it
    /// is (0, 0), which is not on P-256 (b ≠ 0).
    @Test func elementAtInfinityIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        #expect(throws: SAEError.invalidPeerElement(.pointNotOnCurve(curve: .p256))) {
            try sae.process(
                peerScalar: transcript.bytes("phone.commit_scalar"),
                peerElement: [UInt8](repeating: 0, count: 64)
            )
        }
    }

    @Test func coordinateNotBelowThePrimeIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        let element = try Self.allOnes + transcript.bytes("phone.commit_element.y")
        #expect(throws: SAEError.invalidPeerElement(.coordinateOutOfRange(field: "x", curve: .p256))) {
            try sae.process(peerScalar: transcript.bytes("phone.commit_scalar"), peerElement: element)
        }
    }

    @Test func truncatedOrOversizedElementIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        let element = try transcript.point("phone.commit_element")
        let scalar = try transcript.bytes("phone.commit_scalar")
        #expect(throws: SAEError.invalidPeerElement(.invalidLength(field: "point x || y", expected: 64, actual: 63))) {
            try sae.process(peerScalar: scalar, peerElement: Array(element.dropLast()))
        }
        #expect(throws: SAEError.invalidPeerElement(.invalidLength(field: "point x || y", expected: 64, actual: 65))) {
            try sae.process(peerScalar: scalar, peerElement: element + [0])
        }
    }

    @Test func reflectedCommitIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        let own = try #require(sae.ownCommit)
        #expect(throws: SAEError.reflection) {
            try sae.process(peerScalar: own.scalar, peerElement: own.element)
        }
        #expect(throws: SAEError.reflection) {
            try sae.process(peerScalar: own.scalar, peerElement: transcript.point("phone.commit_element"))
        }
        #expect(throws: SAEError.reflection) {
            try sae.process(peerScalar: transcript.bytes("phone.commit_scalar"), peerElement: own.element)
        }
    }

    @Test func wrongConfirmIsRefused() throws {
        var (sae, transcript) = try committedAccessory()
        try sae.process(
            peerScalar: transcript.bytes("phone.commit_scalar"),
            peerElement: transcript.point("phone.commit_element")
        )
        let confirm = try transcript.bytes("phone.confirm")
        try sae.verify(peerConfirm: confirm, peerSendConfirm: 1)
        for index in [0, 15, 31] {
            var forged = confirm
            forged[index] ^= 0x80
            #expect(throws: SAEError.confirmMismatch) { try sae.verify(peerConfirm: forged, peerSendConfirm: 1) }
        }
        #expect(throws: SAEError.confirmMismatch) { try sae.verify(peerConfirm: confirm, peerSendConfirm: 2) }
        #expect(throws: SAEError.confirmMismatch) {
            try sae.verify(peerConfirm: Array(confirm.prefix(16)), peerSendConfirm: 1)
        }
        // Our own confirm sent back is not the peer's.
        #expect(throws: SAEError.confirmMismatch) {
            try sae.verify(peerConfirm: sae.confirm(sendConfirm: 1), peerSendConfirm: 1)
        }
    }
}

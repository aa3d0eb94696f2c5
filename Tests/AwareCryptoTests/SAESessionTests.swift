import AwareTestSupport
import Testing

@testable import AwareCrypto

/// Both roles of the hostap session-A SAE exchange, from the PIN, the NMIs and the recorded
/// rand/mask values, against every value in `pairing.sae` of its transcript.
@Suite struct SAESessionTests {
    static let phoneNMI = hex("02b000000002")
    static let accessoryNMI = hex("02a000000001")

    private func session(own: [UInt8], peer: [UInt8]) throws -> SAESession {
        try SAESession(curve: .p256, password: Array("482915".utf8), ownAddress: own, peerAddress: peer)
    }

    @Test(arguments: ["phone", "accessory"])
    func sessionAEachRole(role: String) throws {
        let transcript = try SAETranscript()
        let peerRole = role == "phone" ? "accessory" : "phone"
        let own = role == "phone" ? Self.phoneNMI : Self.accessoryNMI
        let peer = role == "phone" ? Self.accessoryNMI : Self.phoneNMI
        var sae = try session(own: own, peer: peer)
        #expect(sae.pwe == (try transcript.point("PWE")))

        let commit = try sae.commit(rand: transcript.bytes("\(role).rand"), mask: transcript.bytes("\(role).mask"))
        #expect(commit.scalar == (try transcript.bytes("\(role).commit_scalar")))
        #expect(commit.element == (try transcript.point("\(role).commit_element")))

        let keys = try sae.process(
            peerScalar: transcript.bytes("\(peerRole).commit_scalar"),
            peerElement: transcript.point("\(peerRole).commit_element")
        )
        #expect(keys.k == (try transcript.bytes("k")))
        #expect(keys.keyseed == (try transcript.bytes("keyseed")))
        #expect(keys.kck == (try transcript.bytes("kck")))
        #expect(keys.pmk == (try transcript.bytes("pmk")))
        #expect(keys.pmkid == (try transcript.bytes("pmkid")))

        let sendConfirm = try transcript.integer("\(role).send_confirm")
        #expect(try sae.confirm(sendConfirm: sendConfirm) == transcript.bytes("\(role).confirm"))
        try sae.verify(
            peerConfirm: transcript.bytes("\(peerRole).confirm"),
            peerSendConfirm: transcript.integer("\(peerRole).send_confirm")
        )
    }

    @Test func aWrongPINFailsTheConfirm() throws {
        let transcript = try SAETranscript()
        var sae = try SAESession(
            curve: .p256,
            password: Array("482916".utf8),
            ownAddress: Self.accessoryNMI,
            peerAddress: Self.phoneNMI
        )
        _ = try sae.commit(rand: transcript.bytes("accessory.rand"), mask: transcript.bytes("accessory.mask"))
        try sae.process(
            peerScalar: transcript.bytes("phone.commit_scalar"),
            peerElement: transcript.point("phone.commit_element")
        )
        #expect(throws: SAEError.confirmMismatch) {
            try sae.verify(peerConfirm: transcript.bytes("phone.confirm"), peerSendConfirm: 1)
        }
    }

    /// The rand and mask values come from a seed every failure names (`AWAREBENCH_SEED=<n>`
    /// repeats it).
    @Test func drawnValuesGiveBothRolesTheSameKeys() throws {
        let seed = TestSeed()
        var generator = seed.generator()
        do {
            var phone = try session(own: Self.phoneNMI, peer: Self.accessoryNMI)
            var accessory = try session(own: Self.accessoryNMI, peer: Self.phoneNMI)
            let phoneCommit = try phone.commit(using: &generator)
            let accessoryCommit = try accessory.commit(using: &generator)
            let phoneKeys = try phone.process(peerScalar: accessoryCommit.scalar, peerElement: accessoryCommit.element)
            let accessoryKeys = try accessory.process(
                peerScalar: phoneCommit.scalar,
                peerElement: phoneCommit.element
            )
            #expect(phoneKeys == accessoryKeys, "\(seed)")
            try accessory.verify(peerConfirm: phone.confirm(sendConfirm: 1), peerSendConfirm: 1)
            try phone.verify(peerConfirm: accessory.confirm(sendConfirm: 1), peerSendConfirm: 1)
        } catch {
            Issue.record(error, "\(seed)")
        }
    }

    @Test func stepsOutOfOrderAreRefused() throws {
        var sae = try session(own: Self.phoneNMI, peer: Self.accessoryNMI)
        #expect(throws: SAEError.outOfOrder(operation: "confirm", needs: "process")) {
            try sae.confirm(sendConfirm: 1)
        }
        #expect(throws: SAEError.outOfOrder(operation: "process", needs: "commit")) {
            try sae.process(peerScalar: [], peerElement: [])
        }
    }

    @Test func injectedRandOrMaskOutOfRangeIsRefused() throws {
        var sae = try session(own: Self.phoneNMI, peer: Self.accessoryNMI)
        let one = [UInt8](repeating: 0, count: 31) + [1]
        let two = [UInt8](repeating: 0, count: 31) + [2]
        #expect(throws: SAEError.invalidRandom(reason: "rand must be in (1, r)")) {
            try sae.commit(rand: one, mask: two)
        }
        #expect(throws: SAEError.invalidRandom(reason: "mask must be 32 octets, got 31")) {
            try sae.commit(rand: two, mask: Array(two.dropFirst()))
        }
    }
}

import AwareCore
import AwareCrypto
import AwareDevice
import AwareFuzzing
import AwareWire
import Testing

/// The NM-TK at the device edge (nan-wire-reference.md 3.8): what goes out protected, what comes
/// in opened, and what is dropped.
@Suite struct PairwiseProtectionTests {
    static let phone = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let accessory = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
    static let key = [UInt8](repeating: 0x5A, count: 16)

    /// An SDF follow-up, category 4: `D0 00 | dur | A1 | A2 | A3 | seq | 04 09 50 6F 9A 13 | attrs`.
    static func followUp(to receiver: MACAddress, from sender: MACAddress, category: UInt8 = 4) -> [UInt8] {
        [0xD0, 0x00, 0x00, 0x00] + receiver.octets + sender.octets + cluster.octets + [0x10, 0x00]
            + [category, 0x09, 0x50, 0x6F, 0x9A, 0x13] + [0x2C, 0x05, 0x00, 0x01, 0x01, 0x00, 0x20, 0x00]
    }

    static func paired(_ peer: MACAddress) -> PairwiseProtection {
        var protection = PairwiseProtection()
        protection.install(peer: peer, key: key, cipher: .ccmp128)
        return protection
    }

    @Test func unicastToAPairedPeerGoesOutAsProtectedCategory9() throws {
        var sender = Self.paired(Self.accessory)
        let sent = sender.outbound(Self.followUp(to: Self.accessory, from: Self.phone))
        #expect(sent[1] & 0x40 != 0, "Protected bit")
        // 24-octet header, 8-octet CCMP header with PN 1 (PN0 first, ExtIV set), body, 8-octet MIC.
        #expect(Array(sent[24..<32]) == [0x01, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00])
        #expect(sent.count == Self.followUp(to: Self.accessory, from: Self.phone).count + 16)
        var receiver = Self.paired(Self.phone)
        guard case .deliver(let opened) = receiver.inbound(sent) else {
            Issue.record("the protected frame was not opened")
            return
        }
        #expect(opened == Self.followUp(to: Self.accessory, from: Self.phone, category: 9))
        #expect(receiver.counters.protectedReceived == 1 && sender.counters.protectedSent == 1)
    }

    @Test func packetNumbersIncreaseAndAReplayIsDropped() throws {
        var sender = Self.paired(Self.accessory)
        var receiver = Self.paired(Self.phone)
        let first = sender.outbound(Self.followUp(to: Self.accessory, from: Self.phone))
        let second = sender.outbound(Self.followUp(to: Self.accessory, from: Self.phone))
        #expect(second[24] == 0x02)
        #expect(receiver.inbound(second) != .drop(.replay))
        #expect(receiver.inbound(first) == .drop(.replay))
        #expect(receiver.inbound(second) == .drop(.replay))
        #expect(receiver.counters.replaysDropped == 2)
    }

    @Test func aTamperedOrUnkeyedProtectedFrameIsDropped() throws {
        var sender = Self.paired(Self.accessory)
        var tampered = sender.outbound(Self.followUp(to: Self.accessory, from: Self.phone))
        tampered[tampered.count - 12] ^= 0x01
        var receiver = Self.paired(Self.phone)
        #expect(receiver.inbound(tampered) == .drop(.authenticationFailed))
        var stranger = PairwiseProtection()
        #expect(stranger.inbound(tampered) == .drop(.noKey))
    }

    @Test func unprotectedUnicastFromAPairedPeerIsDroppedButNotMulticastOrPASN() throws {
        var receiver = Self.paired(Self.phone)
        #expect(
            receiver.inbound(Self.followUp(to: Self.accessory, from: Self.phone)) == .drop(.unprotectedFromPairedPeer)
        )
        let multicast = Self.followUp(to: MACAddress(0x51, 0x6F, 0x9A, 0x01, 0, 0), from: Self.phone)
        #expect(receiver.inbound(multicast) == .deliver(multicast))
        // A PASN Authentication frame (B0 00, algorithm 7) is how a pair re-keys: never dropped.
        let pasn =
            [0xB0, 0x00, 0x00, 0x00] + Self.accessory.octets + Self.phone.octets + Self.cluster.octets
            + [0x00, 0x00, 0x07, 0x00, 0x01, 0x00, 0x00, 0x00]
        #expect(receiver.inbound(pasn) == .deliver(pasn))
        #expect(receiver.counters.unprotectedDropped == 1)
        receiver.acceptsUnprotectedFromPairedPeers = true
        let frame = Self.followUp(to: Self.accessory, from: Self.phone)
        #expect(receiver.inbound(frame) == .deliver(frame))
    }

    @Test func framesOverheardForOtherStationsAreNotJudged() throws {
        var sender = Self.paired(Self.accessory)
        let protected = sender.outbound(Self.followUp(to: Self.accessory, from: Self.phone))
        // A third station on the air, paired with neither.
        var bystander = PairwiseProtection(ownAddress: MACAddress(0x02, 0xC0, 0, 0, 0, 9))
        #expect(bystander.inbound(protected) == .deliver(protected))
        var pairedBystander = PairwiseProtection(ownAddress: MACAddress(0x02, 0xC0, 0, 0, 0, 9))
        pairedBystander.install(peer: Self.phone, key: Self.key, cipher: .ccmp128)
        let clear = Self.followUp(to: Self.accessory, from: Self.phone)
        #expect(pairedBystander.inbound(clear) == .deliver(clear))
        #expect(bystander.counters == PairwiseProtection.Counters())
        #expect(pairedBystander.counters == PairwiseProtection.Counters())
    }

    @Test func framesToOthersAndAfterRemovalStayInTheClear() throws {
        var sender = Self.paired(Self.accessory)
        let other = Self.followUp(to: MACAddress(0x02, 0xC0, 0, 0, 0, 3), from: Self.phone)
        #expect(sender.outbound(other) == other)
        sender.remove(peer: Self.accessory)
        let frame = Self.followUp(to: Self.accessory, from: Self.phone)
        #expect(sender.outbound(frame) == frame)
        #expect(!sender.isPaired(Self.accessory))
    }

    @Test func gcmp256ProtectsWithA16OctetTag() throws {
        var sender = PairwiseProtection()
        sender.install(peer: Self.accessory, key: [UInt8](repeating: 1, count: 32), cipher: .gcmp256)
        var receiver = PairwiseProtection()
        receiver.install(peer: Self.phone, key: [UInt8](repeating: 1, count: 32), cipher: .gcmp256)
        let plain = Self.followUp(to: Self.accessory, from: Self.phone)
        let sent = sender.outbound(plain)
        #expect(sent.count == plain.count + 8 + 16)
        #expect(receiver.inbound(sent) == .deliver(Self.followUp(to: Self.accessory, from: Self.phone, category: 9)))
    }

    @Test func garbageNeverTraps() {
        var receiver = Self.paired(Self.phone)
        var generator = SeededGenerator(seed: 3)
        var mutator = FrameMutator(corpus: [Self.followUp(to: Self.accessory, from: Self.phone)], seed: 4)
        var sender = Self.paired(Self.accessory)
        let protected = sender.outbound(Self.followUp(to: Self.accessory, from: Self.phone))
        var protectedMutator = FrameMutator(corpus: [protected], seed: 5)
        for _ in 0..<5_000 {
            _ = receiver.inbound(mutator.next())
            _ = receiver.inbound(protectedMutator.next())
            _ = receiver.inbound(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                }
            )
        }
        #expect(receiver.counters.protectedReceived <= 1)
    }
}

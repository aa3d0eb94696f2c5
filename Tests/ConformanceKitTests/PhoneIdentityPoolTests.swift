import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

/// The runner's phone identities on targets whose accessory outlives a test.
@Suite struct PhoneIdentityPoolTests {
    @Test func testsAtTheSameTimeHoldDifferentIdentitiesAndOneAtATimeReusesTheFirst() {
        let pool = PhoneIdentityPool()
        let first = pool.lease()
        let second = pool.lease()
        #expect(first.index == 0)
        #expect(second.index == 1)
        #expect(first.nik != second.nik)
        pool.release(first)
        // A test that starts after the first ended is the same phone again: the accessory
        // replaces its pairing rather than adding one.
        #expect(pool.lease() == first)
        #expect(pool.leasedCount == 2)
    }

    @Test func identitiesAreFixedAcrossRunsAndLookLikeKeys() {
        // Another run (another pool, another seed) gets the same phones.
        #expect(PhoneIdentityPool().lease() == PhoneIdentityPool.identity(0))
        let niks = (0..<64).map { PhoneIdentityPool.identity($0).nik }
        #expect(niks.allSatisfy { $0.count == 16 })
        #expect(Set(niks).count == 64)
        #expect(niks.allSatisfy { Set($0).count > 4 }, "16 octets that are not a pattern")
    }

    @Test func eachRunDrawsItsPhonesNMIsAfresh() {
        // The accessory keeps the NM-TK of every NMI that paired: a second run's phones must not
        // come back under the first run's NMIs, whatever the seed.
        let first = PhoneIdentityPool(salt: 1)
        let second = PhoneIdentityPool(salt: 2)
        #expect(first.address(seed: 42) == first.address(seed: 42))
        #expect(first.address(seed: 42) != second.address(seed: 42))
        #expect(first.address(seed: 42) != first.address(seed: 43))
        let address = first.address(seed: 42)
        #expect(address.octets[0] == 0x02, "locally administered, individual")
        #expect(!address.isGroup)
    }

    @Test func theSocketAndRadioTargetsShareIdentitiesAndTheOwnedTargetsDoNot() {
        let facts = ProfileFacts(path: "drone.json", services: [])
        #expect(SocketTarget(path: "/tmp/air", profile: facts).phoneIdentities != nil)
        #expect(RadioTarget(interface: "wlan0", profile: facts).phoneIdentities != nil)
        let embedded = EmbeddedTarget(profileDocument: Data(), profile: facts) { _, _, _ in
            throw TargetError("not started in this test")
        }
        #expect(embedded.phoneIdentities == nil)
    }
}

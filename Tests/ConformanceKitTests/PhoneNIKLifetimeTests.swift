import AwareCore
import AwareCrypto
import AwareDevice
import AwareWire
import Testing

@testable import ConformanceKit

/// The phone honours the NIK lifetime the accessory sent (nan-wire-reference.md 3.6): a cached
/// NIK resolves the accessory's NIRA until `pairedAt + lifetime`, and never after; a lifetime
/// kept as 0 (no expiry) resolves at any time.
@Suite struct PhoneNIKLifetimeTests {
    private let accessory = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    private let nik = [UInt8](repeating: 0x3C, count: 16)
    private let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]

    private func record(lifetime: Int) -> PairingRecord {
        PairingRecord(
            peerNMI: accessory,
            peerNIK: nik,
            npk: [UInt8](repeating: 0x11, count: 32),
            akm: .sae,
            cipherSuite: 7,
            pairedAt: 1_000_000,
            nikLifetimeSeconds: lifetime
        )
    }

    @Test func aNIKResolvesOnlyWithinItsLifetime() throws {
        let tag = try NIRATag.compute(nik: nik, nmi: accessory.octets, nonce: nonce)
        let nira = IdentityResolutionAttribute(nonce: nonce, tag: tag)
        let halfDay = [record(lifetime: 43_200)]
        #expect(PairingManager.resolving(halfDay, nira: nira, publisher: accessory, now: 1_000_000 + 43_199) != nil)
        #expect(PairingManager.resolving(halfDay, nira: nira, publisher: accessory, now: 1_000_000 + 43_200) == nil)
        let forever = [record(lifetime: 0)]
        #expect(
            PairingManager.resolving(forever, nira: nira, publisher: accessory, now: 1_000_000 + 10 * 31_536_000) != nil
        )
        // Another NMI does not resolve with the same tag.
        let other = MACAddress(0x02, 0xA0, 0, 0, 0, 0x02)
        #expect(PairingManager.resolving(forever, nira: nira, publisher: other, now: 1_000_000) == nil)
    }
}

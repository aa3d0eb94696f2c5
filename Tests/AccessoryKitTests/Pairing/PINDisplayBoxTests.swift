import AwareCore
import AwareWire
import Testing

@testable import AccessoryKit

@Suite struct PINDisplayBoxTests {
    @Test func theBoxAPersonReads() throws {
        let box = PINDisplayBox.render(
            pin: try PINCode(fixed: "483920"),
            pairingName: "My Drone",
            peer: MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x01)
        )
        let expected = """
            ╔═══════════════════════════════════╗
            ║                                   ║
            ║   Pairing “My Drone”              ║
            ║   with 02:b0:00:00:00:01          ║
            ║                                   ║
            ║      4   8   3   9   2   0        ║
            ║                                   ║
            ║   Enter this PIN on your iPhone   ║
            ║                                   ║
            ╚═══════════════════════════════════╝

            """
        #expect(box == expected)
    }

    @Test func aLongNameWidensTheBoxAndNoPeerDropsItsLine() throws {
        let box = PINDisplayBox.render(
            pin: try PINCode(fixed: "0000"),
            pairingName: "Über-Kamera im Wohnzimmer, Südseite",
            peer: nil
        )
        let expected = """
            ╔═══════════════════════════════════════════════════╗
            ║                                                   ║
            ║   Pairing “Über-Kamera im Wohnzimmer, Südseite”   ║
            ║                                                   ║
            ║      0   0   0   0                                ║
            ║                                                   ║
            ║   Enter this PIN on your iPhone                   ║
            ║                                                   ║
            ╚═══════════════════════════════════════════════════╝

            """
        #expect(box == expected)
    }
}

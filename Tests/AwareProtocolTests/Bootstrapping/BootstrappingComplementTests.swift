import AwareWire
import Testing

@testable import AwareProtocol

/// nan-wire-reference.md 3.2: display <-> keypad, QR display <-> QR scan, NFC tag <-> reader;
/// opportunistic, service managed and handshakes skipped map to themselves. Masks from the 2.18
/// table, written out.
@Suite struct BootstrappingComplementTests {
    @Test(
        arguments: [
            (0x0002, 0x0020),  // PIN display <-> PIN keypad
            (0x0004, 0x0040),  // passphrase display <-> keypad
            (0x0008, 0x0080),  // QR display <-> QR scan
            (0x0010, 0x0100),  // NFC tag <-> NFC reader
        ] as [(UInt16, UInt16)]
    )
    func displayAndEntryAreEachOthersComplement(display: UInt16, entry: UInt16) {
        #expect(BootstrappingMethods(rawValue: display).complement.rawValue == entry)
        #expect(BootstrappingMethods(rawValue: entry).complement.rawValue == display)
    }

    @Test(arguments: [0x0001, 0x4000, 0x8000] as [UInt16])
    func selfComplementaryMethods(mask: UInt16) {
        #expect(BootstrappingMethods(rawValue: mask).complement.rawValue == mask)
    }

    @Test func complementOfASetIsTheSetOfComplements() {
        // PIN display + opportunistic + handshakes skipped -> PIN keypad + the other two.
        #expect(BootstrappingMethods(rawValue: 0x8003).complement.rawValue == 0x8021)
    }

    @Test(
        arguments: [
            (0x0000, false), (0x0020, true), (0x8000, true), (0x0022, false), (0xFFFF, false),
        ] as [(UInt16, Bool)]
    )
    func aRequestNamesExactlyOneMethod(mask: UInt16, single: Bool) {
        #expect(BootstrappingMethods(rawValue: mask).isSingleMethod == single)
    }
}
